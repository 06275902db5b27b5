import { z } from 'zod';

/** The paging envelope `links`: absolute URLs carrying only `page`; `prev`/`next` null at the ends. */
export const PageLinks = z.object({
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

const metaShape = {
  current_page: z.int(),
  from: z.int().nullable(),
  last_page: z.int(),
  path: z.string(),
  per_page: z.int(),
  to: z.int().nullable(),
  total: z.int(),
};

/** The paging envelope `meta`. */
export const PageMeta = z.object(metaShape);

/** getContacts page mode: `meta` also has a `links` array (Laravel's page links). */
export const ContactPageMeta = z.object({
  ...metaShape,
  links: z.array(
    z.looseObject({
      url: z.string().nullable().optional(),
      label: z.string().optional(),
      active: z.boolean().optional(),
    }),
  ),
});

/** The paging envelope around `item`. */
export function pageOf<T extends z.ZodType>(item: T, meta: z.ZodType = PageMeta) {
  return z.object({ data: z.array(item), links: PageLinks, meta });
}
