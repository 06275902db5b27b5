import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { isForbiddenAddress } from './addressPolicy.js';

/** A host that resolves (also) to an address webhooks may not reach. */
export class ForbiddenAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} resolves to a private, loopback or link-local address`);
  }
}

/**
 * Every address `host` resolves to, refused if any is forbidden (unless `allowPrivate`): one
 * public answer beside a private one is not enough, the connection could take either.
 */
export async function resolveHost(host: string, allowPrivate: boolean): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const found: LookupAddress[] = isIP(bare)
    ? [{ address: bare, family: isIP(bare) }]
    : await new Promise((resolve, reject) =>
        dnsLookup(bare, { all: true, verbatim: true }, (err, addresses) =>
          err ? reject(err) : resolve(addresses),
        ),
      );
  if (!allowPrivate && found.some((a) => isForbiddenAddress(a.address))) {
    throw new ForbiddenAddressError(bare);
  }
  return found;
}

/**
 * A `lookup` for node:http that connects only to an address it has just checked: the DNS
 * answer is judged, not the name, so a name that changes its answer between creation and
 * delivery (DNS rebinding) is refused at delivery too.
 */
export function checkedLookup(allowPrivate: boolean) {
  return (
    hostname: string,
    options: { all?: boolean },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    resolveHost(hostname, allowPrivate).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: Error) => callback(err, ''),
    );
  };
}
