/** The document's introduction: the API's conventions, authentication, errors, limits and versioning in one place. */
export const apiDescription = `HTTP API for chatbot developers: custom lists (schemas and records) and contacts.

## Calling a method
Every method is \`GET\` or \`POST\` at \`/api/v1/<methodName>\`. Methods that change data should be called with \`POST\`.
- \`POST\`: a JSON body (\`Content-Type: application/json\`) or form fields.
- \`GET\`: the query string; nested values in bracket notation (\`fields[0][name]=Price\`, \`filters[price]=>=,10\`); URL-encode special characters (\`%\` as \`%25\`). Text has no null and cannot send an empty array or object; a query string or form body holds at most 200 items per array and 2000 parameters (\`400\` beyond), and a request line with its headers at most 16 KiB (\`431\` beyond): larger requests go in a JSON body. Objects are \`deepObject\` parameters; arrays of objects, which no OpenAPI style describes, carry \`x-bracket-notation\`.
- Send \`Accept: application/json\`: without it a validation failure is a \`302\` redirect instead of a JSON \`422\`.
- Timestamps are ISO 8601 strings in UTC.

## Authentication
\`Authorization: Bearer <API_KEY>\`, or the \`api_token\` parameter (URL or body) when a header cannot be set. The API is for account owners on the Pro plan: no or wrong key \`401\`, no Pro plan \`402\`, blocked account \`403\`.

## Errors
Rely on the status code and on \`code\` and \`errors\`, never on the texts. \`422\` lists every failing parameter under \`errors\`, with dotted keys for nested values (\`fields.0.slug\`, \`data.<slug>\`, \`filters.<slug>\`).

## Limits
120 requests per minute per account, all methods combined (the operator may change it): every response carries \`X-RateLimit-Limit\` and \`X-RateLimit-Remaining\`; beyond the limit \`429\` with \`Retry-After\` (seconds).

## Deprecation
A deprecated method answers as before with \`Deprecation: true\` and \`Sunset: <HTTP-date>\`; from that date on it answers \`410\` with code \`method_removed\`.`;
