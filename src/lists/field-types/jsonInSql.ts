/**
 * How Postgres writes a type's values as a record's JSON (items/recordJson.ts): each function
 * takes an SQL expression and returns one whose value is the text the type's `render` and
 * `JSON.stringify` write, byte for byte, or NULL wherever that is not certain. A NULL makes
 * the whole record NULL, and that record is written in Node as before, so an odd value (a
 * number JavaScript writes with an exponent, a year Postgres writes differently) costs a
 * little time, never a different answer. A test compares both writers on awkward values
 * (test/integration/recordJson.test.ts).
 */
export interface JsonInSql {
  /** the value from the field's slot column, which holds one (not NULL) */
  slot(column: string): string;
  /** the value from the record's `data` (a jsonb, neither absent nor JSON null) */
  data(value: string): string;
}

/** A string: Postgres and JavaScript escape the same characters the same way. */
export const textJson: JsonInSql = {
  slot: (column) => `to_json(${column})::text`,
  data: (value) => `case when jsonb_typeof(${value}) = 'string' then ${value}::text end`,
};

/**
 * A numeric as JavaScript writes the double it reads: the same digits where JavaScript writes
 * no exponent (0, and 1e-6 ≤ |n| < 1e21). What a numeric slot or `data` holds was written
 * from a double's shortest text (number) or is canonical decimal text of at most 15 digits
 * (money): no trailing zeros, and the double read back has these digits.
 */
const numericJson = (n: string) =>
  `case when abs(${n}) < 1e21 and (abs(${n}) >= 1e-6 or ${n} = 0) then ${n}::text end`;

/** number: a JSON number in `data`. */
export const numberJson: JsonInSql = {
  slot: numericJson,
  data: (value) =>
    `case when jsonb_typeof(${value}) = 'number' then ${numericJson(`(${value})::numeric`)} end`,
};

/** contact and bot: IDs, written as they are while a double holds them exactly. */
const exactId = (n: string) =>
  `case when ${n} between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER} then ${n}::text end`;

export const referenceJson: JsonInSql = {
  slot: exactId,
  data: (value) =>
    `case when jsonb_typeof(${value}) = 'number' then ${exactId(`(${value})::numeric`)} end`,
};

/** money: kept in `data` as canonical decimal text, rendered as a JSON number. */
export const moneyJson: JsonInSql = {
  slot: numericJson,
  data: (value) => {
    const text = `(${value} #>> '{}')`;
    return `case when jsonb_typeof(${value}) = 'string' and length(translate(${text}, '-.', '')) <= 15
      and ${text} ~ '^-?[0-9]+([.][0-9]+)?$' then ${numericJson(`${text}::numeric`)} end`;
  },
};

/** bool: the slot holds 1 or 0 (anything but 1 reads as false, as fromSlot has it). */
export const boolJson: JsonInSql = {
  slot: (column) => `case when ${column} = 1 then 'true' else 'false' end`,
  data: (value) => `case when jsonb_typeof(${value}) = 'boolean' then ${value}::text end`,
};

/**
 * Where an instant's text is the same in both: years 100 to 9999 (JavaScript writes a sign
 * and six digits past them, and reads Postgres's text of years before 100 otherwise).
 */
const ordinaryYear = (instant: string) =>
  `${instant} between '0100-01-01Z' and '9999-12-31 23:59:59.999999Z'`;

/** An instant as text in UTC, `2024-05-01T10:20:00.000Z`, whatever the session's zone. */
export const utcText = (instant: string) =>
  `to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An instant as `toISOString` writes it, quoted: milliseconds cut, not rounded, as both do. */
export const instantJson = (instant: string) =>
  `case when ${ordinaryYear(instant)} then '"' || ${utcText(instant)} || '"' end`;

/** datetime: kept in `data` as the ISO text it is rendered as. */
export const datetimeJson: JsonInSql = {
  slot: instantJson,
  data: textJson.data,
};

/** date: the slot holds midnight UTC, `data` the day; rendered as midnight UTC. */
export const dateJson: JsonInSql = {
  slot: (column) =>
    `case when ${ordinaryYear(column)} then '"' || to_char(${column} at time zone 'UTC', 'YYYY-MM-DD') || 'T00:00:00.000Z"' end`,
  data: (value) =>
    `case when jsonb_typeof(${value}) = 'string' then to_json((${value} #>> '{}') || 'T00:00:00.000Z')::text end`,
};
