// The idempotency records of a storage written as one document (the JSON file adapter), under
// the dataset's `evcal` metadata: `evcal.idempotency`. Like the change log, they belong to the
// storage that wrote them: datasets that are imported or exported leave them out.
import * as v from 'valibot';

const ms = v.pipe(v.number(), v.integer());

/** `evcal.idempotency` of a document. */
export const idempotencySchema = v.array(v.object({
  scope: v.pipe(v.string(), v.minLength(1)),
  key: v.pipe(v.string(), v.minLength(1), v.maxLength(255)),
  fingerprint: v.string(),
  answer: v.string(),
  created: ms,
  expires: ms,
}));
