import { z } from 'zod';
import { CONTACT_KEYS, docShape, variableDoc } from '../../contacts/contactShape.js';

/** A contact's variable, as contactShape.ts writes it. */
export const ContactVariable = variableDoc;

/** Every method returning contacts uses this shape (contactShape.ts). */
export const Contact = z.object(docShape(CONTACT_KEYS));
