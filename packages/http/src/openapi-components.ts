// The response shapes of /doc's `components.schemas`, generated from core's declarations of
// the representations (core: represent/schemas.ts), which also type every operation's result:
// /doc cannot describe anything else than what is rendered.
import { REPRESENTATIONS, SYNC_REPRESENTATIONS } from '@evcal/core';
import { toJsonSchemaDefs } from '@valibot/to-json-schema';

const ALL = { ...REPRESENTATIONS, ...SYNC_REPRESENTATIONS };
const defs = toJsonSchemaDefs(ALL, { target: 'openapi-3.0', errorMode: 'throw' });

/** The component schemas, their references to one another pointing into `components`. */
export const COMPONENTS: Record<string, unknown> = JSON.parse(JSON.stringify(defs).replaceAll('"#/$defs/', '"#/components/schemas/'));
