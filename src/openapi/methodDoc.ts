import type { z } from 'zod';

export const TAGS = ['Account', 'List schemas', 'List items', 'Contacts', 'Other'] as const;
export type Tag = (typeof TAGS)[number];

export interface SuccessResponse {
  status: 200 | 201 | 204;
  description: string;
  /** absent for 204 (no body) */
  body?: z.ZodType;
}

/**
 * What the OpenAPI document says about a method beyond its parameter schema, which stays
 * in the method file. Kept here so the method files carry only what the handler needs.
 */
export interface MethodDoc {
  tag: Tag;
  summary: string;
  description?: string;
  /** spec 1 rule 1: methods that change data should be called with POST */
  changesData: boolean;
  success: SuccessResponse[];
}
