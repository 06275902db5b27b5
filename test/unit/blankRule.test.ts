import { describe, expect, it } from 'vitest';
import { getContacts } from '../../src/methods/getContacts.js';
import { getListItems } from '../../src/methods/getListItems.js';
import { getNumberOfContacts } from '../../src/methods/getNumberOfContacts.js';
import { blankToUndefined, isBlank } from '../../src/shared/paramTypes.js';

/** null, '' and whitespace-only text: what a JSON body, a form and a query string send for "nothing". */
const BLANKS: unknown[] = [null, '', '   ', '\t'];

describe('the blank rule', () => {
  it('calls null and empty or whitespace-only text blank, and nothing else', () => {
    for (const v of BLANKS) expect(isBlank(v)).toBe(true);
    for (const v of [0, false, '0', ' x ', [], {}]) expect(isBlank(v)).toBe(false);
    expect(blankToUndefined(' x ')).toBe(' x ');
  });

  it.each(BLANKS)('getListItems reads a blank limit and page (%j) as not sent', (blank) => {
    const parsed = getListItems.params.parse({ schema_id: 'l1', limit: blank, page: blank });
    expect(parsed).toMatchObject({ schema_id: 'l1' });
    expect(parsed.limit).toBeUndefined();
    expect(parsed.page).toBeUndefined();
  });

  it.each(BLANKS)('getContacts reads blank paging parameters (%j) as not sent', (blank) => {
    const parsed = getContacts.params.parse({ page: blank, count: blank, bot_id: blank });
    expect(parsed).toEqual(expect.objectContaining({ page: undefined, count: undefined }));
    expect(parsed.bot_id).toBeUndefined();
  });

  it.each(BLANKS)('a blank offset or limit (%j) does not select offset mode', (blank) => {
    const parsed = getContacts.params.parse({ offset: blank, limit: blank, page: '2' });
    expect(parsed.page).toBe(2);
    expect(parsed.offset).toBeUndefined();
  });

  it('getNumberOfContacts reads blank dates as not sent', () => {
    const parsed = getNumberOfContacts.params.parse({ date_from: '', date_to: null });
    expect(parsed.date_from).toBeUndefined();
    expect(parsed.date_to).toBeUndefined();
  });

  it('a value that is sent is still checked', () => {
    expect(getListItems.params.safeParse({ schema_id: 'l1', page: '0' }).success).toBe(false);
    expect(getContacts.params.safeParse({ count: ' 501 ' }).success).toBe(false);
  });
});
