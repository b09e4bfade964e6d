// Venue and organizer operations (behaviour reference: "GET /venues and GET /organizers", "Venues
// and organizers, single GET", "Venue and organizer create", "Venue and organizer update and
// delete"): one implementation for both kinds, which differ only in their name field and their text
// fields.
import { msg } from '../domain/messages';
import { CalendarError } from '../domain/errors';
import { parseArgs, type ArgValues, type WireArgs } from '../kernel/args';
import type { OrganizerRecord, PostStatus, VenueRecord } from '../model/records';
import { foldText, fragmentWords } from '../query/text-match';
import type { LinkedPostKind } from '../query/linked-post-engine';
import type { LinkedPostQuery } from '../query/query-types';
import { organizerJson, venueJson } from '../represent/linked-post-json';
import { redactProtected } from '../represent/redact';
import type { LinkedPostCollection } from '../storage/storage';
import { siteWallClock, utcWallClock } from '../time/interpret';
import { resolveZone } from '../time/zone';
import { startCall, requirePermission, type Call, type CallContext, type WriteCall } from '../kernel/call';
import type { CalendarConfig } from '../kernel/context';
import { createPlanCache, type PlanCache } from '../kernel/plan-cache';
import { LINKED_POST_ARGS, type OrganizerWriteArgs, type VenueWriteArgs } from './linked-post-args';
import { listKeys, listLinks, listResult, parseList, planWithCache, readList, listViewKey, pageOffset, listFields, totalPages, type ListPlan, type ListResult } from '../kernel/list-urls';
import { instantOf } from '../time/validity';
import { remember } from '../kernel/arg-memo';
import { explicitDates, isUnlocked } from '../shared/post-access';
import { publishDates, resolveSlug, scaleBackStatus, scheduleStatus, stamps } from '../shared/post-write';
import { modifiedRange, modifiedValidity, resolveImage } from '../shared/shared-args';
import { EDITOR_STATUSES, PUBLIC_STATUSES, visibility, type Visibility } from '../shared/status-filter';
import { checkPreconditions, linkedPostValidator } from '../kernel/validators';
import { represented, type Representation } from '../kernel/representation';
import { runWrite } from '../kernel/write';
import type {
  LinkedPostGetBySlugInput, LinkedPostGetInput, LinkedPostIdInput, LinkedPostListInput, LinkedPostSlugInput,
} from './linked-post-inputs';
import type { OrganizerJson, OrganizerListJson, VenueJson, VenueListJson } from '../represent/schemas';
import type { OrganizerWriteInput, VenueWriteInput } from './linked-post-inputs';

type LinkedRecord = VenueRecord | OrganizerRecord;
/**
 * The parsed write values of a venue or an organizer: one type for both kinds (each kind's
 * values have a subset of its keys). `slug` comes from datasets, whose records name theirs.
 */
export type LinkedPostWriteValues = ArgValues<VenueWriteArgs> & ArgValues<OrganizerWriteArgs> & { slug?: string };
/** The parsed path parameter that names the record. */
type PostKey = { readonly id?: number; readonly slug?: string };
type Input = WireArgs;

const NOT_TRASHED: readonly PostStatus[] = ['publish', 'future', 'draft', 'pending', 'private', 'auto-draft', 'inherit'];

/** The operations of `/venues` (J = VenueJson) or `/organizers` (J = OrganizerJson), typed as EventOperations are. */
export interface LinkedPostOperations<
  J extends object = VenueJson | OrganizerJson, L extends object = Record<string, unknown>, W extends object = Input,
> {
  list(input?: LinkedPostListInput, ctx?: CallContext): Promise<ListResult<L>>;
  /** The list parsed and validated, with its validator, before it is read (see ListPlan). */
  planList(input?: LinkedPostListInput, ctx?: CallContext): Promise<ListPlan<L>>;
  get(input: LinkedPostGetInput, ctx?: CallContext): Promise<Representation<J>>;
  getBySlug(input: LinkedPostGetBySlugInput, ctx?: CallContext): Promise<Representation<J>>;
  create(input: W, ctx?: CallContext): Promise<Representation<J>>;
  /** POST/PUT on an existing record: omitted status, map flags, image and stateprovince take their defaults. */
  update(input: W & LinkedPostIdInput, ctx?: CallContext): Promise<Representation<J>>;
  updateBySlug(input: W & LinkedPostSlugInput, ctx?: CallContext): Promise<Representation<J>>;
  /** PATCH: only the fields sent change. */
  patch(input: W & LinkedPostIdInput, ctx?: CallContext): Promise<Representation<J>>;
  patchBySlug(input: W & LinkedPostSlugInput, ctx?: CallContext): Promise<Representation<J>>;
  delete(input: LinkedPostIdInput, ctx?: CallContext): Promise<Representation<J>>;
  deleteBySlug(input: LinkedPostSlugInput, ctx?: CallContext): Promise<Representation<J>>;
}

export function linkedPostOperations(kind: 'venue', config: CalendarConfig): LinkedPostOperations<VenueJson, VenueListJson, VenueWriteInput>;
export function linkedPostOperations(kind: 'organizer', config: CalendarConfig): LinkedPostOperations<OrganizerJson, OrganizerListJson, OrganizerWriteInput>;
/** One implementation for both kinds; the overloads above say which representation each kind's operations give. */
export function linkedPostOperations(kind: LinkedPostKind, config: CalendarConfig): LinkedPostOperations {
  const args = LINKED_POST_ARGS[kind];
  const listArgs = args.list;
  /** The record the parsed path parameter names (validation made sure it exists). */
  const locate = async (call: Call, key: PostKey): Promise<LinkedRecord> => {
    const coll = collection(call);
    return (key.id !== undefined ? await coll.get(key.id) : await coll.getBySlug(key.slug ?? ''))!;
  };

  const read = async (specs: typeof args.get | typeof args.getBySlug, input: Input, ctx?: CallContext) => {
    const call = await startCall(config, ctx);
    const { values } = await parseArgs(specs, input, call.args);
    const post = await locate(call, values);
    if (!call.permissions.canRead(kind, post)) {
      throw new CalendarError(`${kind}_not_accessible`, kind === 'venue' ? msg('The requested venue is not accessible') : msg('The requested organizer is not accessible'));
    }
    const unlocked = isUnlocked(call, kind, post, values);
    const body = render(call, post, { jsonLd: unlocked });
    return represented(unlocked ? body : redactProtected(body), linkedPostValidator(kind, post));
  };

  const write = async (specs: typeof args.update | typeof args.updateBySlug, input: Input, ctx: CallContext | undefined, mode: 'replace' | 'patch') => {
    const call = await startCall(config, ctx);
    const next = await runWrite(call, async (c) => {
      const { values } = await parseArgs(specs, input, c.args);
      const post = await locate(c, values);
      requirePermission(c, c.permissions.canEdit(kind, post));
      checkPreconditions(c.preconditions, () => linkedPostValidator(kind, post));
      const updated = await applyWrite(c, kind, post, values, mode);
      await collection(c).replace(updated);
      return updated;
    });
    return represented(render(call, next), linkedPostValidator(kind, next));
  };

  const remove = async (specs: typeof args.delete | typeof args.deleteBySlug, input: Input, ctx?: CallContext) => {
    const call = await startCall(config, ctx);
    const trashed = await runWrite(call, async (c) => {
      const { values } = await parseArgs(specs, input, c.args);
      const post = await locate(c, values);
      requirePermission(c, c.permissions.canDelete(kind, post));
      if (post.status === 'trash') throw new CalendarError(`${kind}_in_trash`, kind === 'venue' ? msg('The venue is already trashed') : msg('The organizer is already trashed'));
      checkPreconditions(c.preconditions, () => linkedPostValidator(kind, post));
      const now = stamps(c.now, config.zone);
      const slug = await resolveSlug({ requested: undefined, current: post.slug, title: post.title, id: post.id, status: 'trash', taken: async () => false });
      const record = { ...post, status: 'trash' as const, slug, modified: now.local, modifiedUtc: now.utc, revision: c.storage.change };
      await collection(c).replace(record);
      // Deleting a venue or organizer unlinks it from every event (behaviour reference: "Deleting a
      // venue or organizer unlinks it").
      await c.storage.events.unlink(kind, post.id, c.storage.change);
      return record;
    });
    return represented(render(call, trashed), linkedPostValidator(kind, trashed));
  };

  const runList = async (
    call: Call, values: ArgValues<typeof listArgs>, visible: Visibility, query: LinkedPostQuery, page: number, perPage: number, validator: string,
  ): Promise<ListResult<VenueListJson | OrganizerListJson>> => {
    const result = await collection(call).list(query);
    if (result.items.length === 0 && page > 1) {
      throw new CalendarError(`${kind}_page_not_found`, kind === 'venue'
        ? msg('The requested venue archive page does not exist')
        : msg('The requested organizer archive page does not exist'));
    }
    const pages = totalPages(result.total, perPage);
    const links = listLinks(`${call.links.apiRoot}/${kind}s/`, [
      ['page', page], ['per_page', perPage], ['search', values.search], ['event', values.event],
      ['has_events', values.has_events === undefined ? undefined : values.has_events ? 1 : 0],
      ['only_with_upcoming', values.only_with_upcoming ? 1 : undefined],
      ['status', visible.requested.join(',')],
      ['modified_after', values.modified_after], ['modified_before', values.modified_before],
    ], page, page < pages, page > 1 && page - 1 <= pages);
    const shown = <J extends VenueJson | OrganizerJson>(post: LinkedRecord, body: J) => (isUnlocked(call, kind, post, values) ? body : redactProtected(body));
    const rest = listFields(links, result.total, pages);
    const body = kind === 'venue'
      ? { venues: result.items.filter(isVenue).map((post) => shown(post, venueJson(call.links, post))), ...rest }
      : { organizers: result.items.filter(isOrganizer).map((post) => shown(post, organizerJson(call.links, post))), ...rest };
    return listResult({ body }, links, result.total, pages, validator);
  };

  const plans: PlanCache<{
    values: ArgValues<typeof listArgs>; visible: Visibility; query: LinkedPostQuery; page: number; perPage: number; validator: string; key: string;
  }, ListResult<VenueListJson | OrganizerListJson>> = createPlanCache(config.listCache);

  const planList = async (input: Input = {}, ctx?: CallContext): Promise<ListPlan<VenueListJson | OrganizerListJson>> => {
    const call = await startCall(config, ctx);
    const { plan: p, stable } = await planWithCache(call, plans, input, async (lastChange) => {
      const { values, page, perPage } = await parseList(call, listArgs, input);
      const visible = visibility(call.permissions, kind, values.status);
      const query = listQuery(call, values, visible, page, perPage);
      const { validator, key } = listKeys(lastChange, [kind, query, values, listViewKey(call)]);
      // only_with_upcoming counts events from this very instant; modified bounds may be relative.
      const validity = values.only_with_upcoming ? instantOf(call.now) : modifiedValidity(call, values);
      return { plan: { values, visible, query, page, perPage, validator, key }, validity };
    });
    return { validator: p.validator, ...(stable ? { stable } : {}), run: () => readList(plans, p.key, () => runList(call, p.values, p.visible, p.query, p.page, p.perPage, p.validator)) };
  };

  return {
    planList,
    list: async (input = {}, ctx) => (await planList(input, ctx)).run(),
    get: (input, ctx) => read(args.get, input, ctx),
    getBySlug: (input, ctx) => read(args.getBySlug, input, ctx),
    async create(input, ctx) {
      const call = await startCall(config, ctx);
      const post = await runWrite(call, async (c) => {
        const { values } = await parseArgs(args.create, input, c.args);
        requirePermission(c, c.permissions.can(`edit_${kind}s`));
        return (await collection(c).get(await createOrReuse(c, kind, values)))!;
      });
      return represented(render(call, post), linkedPostValidator(kind, post));
    },
    update: (input, ctx) => write(args.update, input, ctx, 'replace'),
    updateBySlug: (input, ctx) => write(args.updateBySlug, input, ctx, 'replace'),
    patch: (input, ctx) => write(args.update, input, ctx, 'patch'),
    patchBySlug: (input, ctx) => write(args.updateBySlug, input, ctx, 'patch'),
    delete: (input, ctx) => remove(args.delete, input, ctx),
    deleteBySlug: (input, ctx) => remove(args.deleteBySlug, input, ctx),
  };

  function collection(call: Call): LinkedPostCollection<LinkedRecord> {
    return linkedCollection(call, kind);
  }

  function render(call: Call, post: LinkedRecord, options: { jsonLd?: boolean } = {}): VenueJson | OrganizerJson {
    return isVenue(post) ? venueJson(call.links, post, options) : organizerJson(call.links, post, options);
  }
}

/** The collection of a kind, for code that handles both kinds alike. */
function linkedCollection(call: Call, kind: LinkedPostKind): LinkedPostCollection<LinkedRecord> {
  return kind === 'venue' ? call.storage.venues : call.storage.organizers;
}

function isVenue(post: LinkedRecord): post is VenueRecord {
  return 'stateprovince' in post;
}

function isOrganizer(post: LinkedRecord): post is OrganizerRecord {
  return !isVenue(post);
}

/**
 * Creates a venue or organizer from validated create values, or — when a non-trashed one has
 * the same name (and description, when one is given), ignoring case — reuses it, overwriting
 * its fields with the ones sent if the caller may edit it (behaviour reference: "Venue and
 * organizer create"). Returns the id.
 */
export async function createOrReuse(call: WriteCall, kind: LinkedPostKind, values: LinkedPostWriteValues): Promise<number> {
  const coll = linkedCollection(call, kind);
  const name = String(values[kind]).trim();
  const description = values.description === undefined ? undefined : String(values.description).trim();
  const duplicate = (await coll.list({
    statuses: NOT_TRASHED,
    titleEquals: foldText(name),
    ...(description ? { descriptionEquals: foldText(description) } : {}),
    sort: [{ field: 'id', direction: 'asc' }],
    limit: 1,
  })).items[0];
  if (duplicate) {
    let kept = duplicate;
    if (call.permissions.canEdit(kind, duplicate)) {
      // The fields a reuse overwrites: all but the name, description, author, dates and status.
      const { venue: _venue, organizer: _organizer, description: _description, author: _author, date: _date, date_utc: _dateUtc, status: _status, slug: _slug, ...fields } = values;
      kept = await applyWrite(call, kind, duplicate, fields, 'patch');
      await coll.replace(kept);
    }
    remember(call.args.memo, kind, [kept]);
    return duplicate.id;
  }
  const id = await call.storage.sequences.next('post');
  const created = await newLinkedPost(call, kind, id, values);
  await coll.insert(created);
  remember(call.args.memo, kind, [created]);
  return id;
}

/** A new venue or organizer record from validated create values (no duplicate check). */
export function newLinkedPost(call: WriteCall, kind: LinkedPostKind, id: number, values: LinkedPostWriteValues): Promise<LinkedRecord> {
  return applyWrite(call, kind, blankRecord(kind, id, call.principal?.id ?? 0), values, 'replace', true);
}

// ---- helpers ----

function listQuery(call: Call, values: ArgValues<(typeof LINKED_POST_ARGS)[LinkedPostKind]['list']>, visible: Visibility, page: number, perPage: number): LinkedPostQuery {
  // Events count only when the caller could see them in lists: editors see others' unpublished events.
  const seesOthersEvents = call.permissions.can('edit_others_events');
  const search = values.search === undefined ? undefined : fragmentWords(values.search);
  return {
    statuses: visible.statuses,
    ...(visible.ownedBy ? { ownedBy: visible.ownedBy } : {}),
    ...(search && search.length > 0 ? { search } : {}),
    ...(values.event !== undefined ? { eventId: values.event } : {}),
    // has_events counts events that are not drafts or pending (behaviour reference: "GET /venues
    // and GET /organizers"); only published ones for callers who cannot see others' unpublished
    // events.
    ...(values.has_events !== undefined ? {
      hasEvents: { value: values.has_events, eventStatuses: seesOthersEvents ? ['publish', 'future', 'private', 'trash'] : PUBLIC_STATUSES },
    } : {}),
    ...(values.only_with_upcoming ? {
      withEvents: { eventStatuses: seesOthersEvents ? EDITOR_STATUSES : PUBLIC_STATUSES, startingFrom: call.now },
    } : {}),
    ...modifiedRange(call, values),
    sort: [{ field: 'date', direction: 'desc' }, { field: 'id', direction: 'desc' }],
    limit: perPage,
    offset: pageOffset(page, perPage),
  };
}

function blankRecord(kind: LinkedPostKind, id: number, authorId: number): LinkedRecord {
  const post = {
    id, authorId, status: 'draft' as const, slug: '', password: '', title: '', description: '', excerpt: '',
    date: '', dateUtc: null, modified: '', modifiedUtc: '', image: null, revision: 0, phone: '', website: '',
  };
  return kind === 'venue'
    ? { ...post, address: '', city: '', country: '', province: '', state: '', zip: '', stateprovince: '', showMap: true, showMapLink: true, geoLat: null, geoLng: null }
    : { ...post, email: '' };
}

/**
 * The record after a write. `replace` (POST/PUT, and creation) gives omitted status, map flags,
 * image and (venues) stateprovince their defaults; `patch` changes only what was sent.
 */
async function applyWrite(
  call: WriteCall, kind: LinkedPostKind, post: LinkedRecord, values: LinkedPostWriteValues, mode: 'replace' | 'patch', creating = false,
): Promise<LinkedRecord> {
  const site = call.config.zone;
  const now = stamps(call.now, site);
  const has = (k: keyof LinkedPostWriteValues) => values[k] !== undefined;
  const str = (value: string | undefined, fallback: string) => (value !== undefined ? value.trim() : fallback);

  const requested = values.status;
  let status: PostStatus = mode === 'replace' || requested !== undefined ? scaleBackStatus(call, requested) : post.status;
  const explicit = explicitDates(
    has('date') ? siteWallClock(values.date, site, call.now) : undefined,
    has('date_utc') ? utcWallClock(values.date_utc, resolveZone('UTC')!, call.now) : undefined,
    site, site,
  );
  const dates = publishDates(creating ? undefined : post, explicit, status, now);
  status = scheduleStatus(status, dates.dateUtc, call.now);
  const title = str(values[kind], post.title);
  const image = values.image !== undefined
    ? (values.image === '' ? null : (await resolveImage(values.image, call.args)) ?? null)
    : mode === 'replace' ? null : post.image;
  const slug = await resolveSlug({
    requested: values.slug, current: post.slug, title, id: post.id, status, slugFromTitle: creating,
    taken: async (s) => {
      const other = await (kind === 'venue' ? call.storage.venues : call.storage.organizers).getBySlug(s);
      return other !== undefined && other.id !== post.id;
    },
  });
  const common = {
    authorId: values.author ?? post.authorId,
    status,
    slug,
    title,
    description: str(values.description, post.description),
    date: dates.date,
    dateUtc: dates.dateUtc,
    modified: now.local,
    modifiedUtc: now.utc,
    image,
    revision: call.storage.change,
    phone: str(values.phone, post.phone),
    website: str(values.website, post.website),
  };
  if (!isVenue(post)) return { ...post, ...common, email: str(values.email, post.email) };

  const venue = post;
  const flag = (value: boolean | undefined, current: boolean) => value ?? (mode === 'replace' ? true : current);
  const stateprovince = values.stateprovince !== undefined ? values.stateprovince.trim() : mode === 'replace'
    ? deriveStateProvince(str(values.state, ''), str(values.province, ''), str(values.country, ''))
    : venue.stateprovince;
  return {
    ...venue,
    ...common,
    address: str(values.address, venue.address),
    city: str(values.city, venue.city),
    country: str(values.country, venue.country),
    province: str(values.province, venue.province),
    state: str(values.state, venue.state),
    zip: str(values.zip, venue.zip),
    stateprovince,
    showMap: flag(values.show_map, venue.showMap),
    showMapLink: flag(values.show_map_link, venue.showMapLink),
    geoLat: values.geo_lat ?? venue.geoLat,
    geoLng: values.geo_lng ?? venue.geoLng,
  };
}

/** The state for US venues (or with no country), else the province (behaviour reference: "Venue and organizer create"). */
export function deriveStateProvince(state: string, province: string, country: string): string {
  if (state && (country === '' || /^(US|USA|United States( of America)?)$/i.test(country))) return state;
  return province;
}

export type { ArgValues };
