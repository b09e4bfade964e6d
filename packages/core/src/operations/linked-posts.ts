// Venue and organizer operations (behaviour.md §2.2, §3.2, §4.4, §4.5): one implementation for
// both kinds, which differ only in their name field and their text fields.
import { msg } from '../messages';
import { CalendarError } from '../errors';
import { parseArgs, type ArgSpecs, type ArgValues } from '../input/args';
import type { OrganizerRecord, PostStatus, VenueRecord } from '../model/records';
import { foldText, fragmentWords } from '../query/text-match';
import type { LinkedPostKind } from '../query/linked-post-engine';
import type { LinkedPostQuery } from '../query/query-types';
import { organizerJson, venueJson } from '../represent/linked-post-json';
import { redactProtected } from '../represent/redact';
import type { LinkedPostCollection } from '../storage/storage';
import { siteWallClock, utcWallClock } from '../time/interpret';
import { resolveZone } from '../time/zone';
import { beginCall, requirePermission, type Call, type CallContext, type WriteCall } from './call';
import type { CalendarConfig } from './config';
import {
  linkedPostIdArg, linkedPostListArgs, linkedPostSlugArg, linkedPostWriteArgs, META_FIELDS, readArgs,
} from './linked-post-args';
import { listLinks, listResult, parseList, planWithCache, readList, listViewKey, pageOffset, postListBody, totalPages, type ListPlan, type ListResult } from './list-urls';
import { remember } from './event-render';
import { explicitDates, isUnlocked, type Unlock } from './post-access';
import { publishDates, resolveSlug, scaleBackStatus, scheduleStatus, stamps } from './post-write';
import { MODIFIED_PARAMS, modifiedRange, resolveImage } from './shared-args';
import { EDITOR_STATUSES, PUBLIC_STATUSES, visibility, type Visibility } from './status-filter';
import { checkPreconditions, linkedPostValidator, listValidator, withValidator } from './validators';
import { runWrite } from './write';
import type {
  LinkedPostGetBySlugInput, LinkedPostGetInput, LinkedPostIdInput, LinkedPostListInput, LinkedPostSlugInput,
} from './inputs';
import type { OrganizerJson, OrganizerListJson, VenueJson, VenueListJson } from '../represent/schemas';
import type { OrganizerWriteInput, VenueWriteInput } from './inputs';
import type { Validated } from './validators';

type LinkedRecord = VenueRecord | OrganizerRecord;
type Values = Record<string, unknown>;
type Input = Readonly<Record<string, unknown>>;

const NOT_TRASHED: readonly PostStatus[] = ['publish', 'future', 'draft', 'pending', 'private', 'auto-draft', 'inherit'];

/** The operations of `/venues` (J = VenueJson) or `/organizers` (J = OrganizerJson), typed as EventOperations are. */
export interface LinkedPostOperations<
  J extends object = VenueJson | OrganizerJson, L extends object = Record<string, unknown>, W extends object = Input,
> {
  list(input?: LinkedPostListInput, ctx?: CallContext): Promise<ListResult<L>>;
  /** The list parsed and validated, with its validator, before it is read (see ListPlan). */
  planList(input?: LinkedPostListInput, ctx?: CallContext): Promise<ListPlan<L>>;
  get(input: LinkedPostGetInput, ctx?: CallContext): Promise<Validated<J>>;
  getBySlug(input: LinkedPostGetBySlugInput, ctx?: CallContext): Promise<Validated<J>>;
  create(input: W, ctx?: CallContext): Promise<Validated<J>>;
  /** POST/PUT on an existing record: omitted status, map flags, image and stateprovince take their defaults. */
  update(input: W & LinkedPostIdInput, ctx?: CallContext): Promise<Validated<J>>;
  updateBySlug(input: W & LinkedPostSlugInput, ctx?: CallContext): Promise<Validated<J>>;
  /** PATCH: only the fields sent change. */
  patch(input: W & LinkedPostIdInput, ctx?: CallContext): Promise<Validated<J>>;
  patchBySlug(input: W & LinkedPostSlugInput, ctx?: CallContext): Promise<Validated<J>>;
  delete(input: LinkedPostIdInput, ctx?: CallContext): Promise<Validated<J>>;
  deleteBySlug(input: LinkedPostSlugInput, ctx?: CallContext): Promise<Validated<J>>;
}

export function linkedPostOperations(kind: 'venue', config: CalendarConfig): LinkedPostOperations<VenueJson, VenueListJson, VenueWriteInput>;
export function linkedPostOperations(kind: 'organizer', config: CalendarConfig): LinkedPostOperations<OrganizerJson, OrganizerListJson, OrganizerWriteInput>;
/** One implementation for both kinds; the overloads above say which representation each kind's operations give. */
export function linkedPostOperations(kind: LinkedPostKind, config: CalendarConfig): LinkedPostOperations {
  const listArgs = linkedPostListArgs(kind);
  const createArgs = linkedPostWriteArgs(kind, 'create');
  const updateArgs = linkedPostWriteArgs(kind, 'update');
  const byId = { id: linkedPostIdArg(kind) };
  const bySlug = { slug: linkedPostSlugArg(kind) };

  const locate = async <S extends ArgSpecs>(call: Call, specs: S, input: Input) => {
    const { values } = await parseArgs(specs, input, call.args);
    const v = values as Values;
    const coll = collection(call);
    const post = (v.id !== undefined ? await coll.get(v.id as number) : await coll.getBySlug(v.slug as string))!;
    return { values: v, post };
  };

  const read = async (specs: ArgSpecs, input: Input, ctx?: CallContext) => {
    const call = beginCall(config, ctx);
    const { values, post } = await locate(call, { ...specs, ...readArgs }, input);
    if (!call.permissions.canRead(kind, post)) {
      throw new CalendarError(`${kind}_not_accessible`, kind === 'venue' ? msg('The requested venue is not accessible') : msg('The requested organizer is not accessible'));
    }
    const unlocked = isUnlocked(call, kind, post, values as Unlock);
    const body = render(call, post, { jsonLd: unlocked });
    return withValidator(unlocked ? body : redactProtected(body), linkedPostValidator(kind, post));
  };

  const write = async (specs: ArgSpecs, input: Input, ctx: CallContext | undefined, mode: 'replace' | 'patch') => {
    const call = beginCall(config, ctx);
    const next = await runWrite(call, async (c) => {
      const { values, post } = await locate(c, { ...specs, ...updateArgs }, input);
      requirePermission(c, c.permissions.canEdit(kind, post));
      checkPreconditions(c.preconditions, () => linkedPostValidator(kind, post));
      const updated = await applyWrite(c, kind, post, values, mode);
      await collection(c).replace(updated);
      return updated;
    });
    return withValidator(render(call, next), linkedPostValidator(kind, next));
  };

  const remove = async (specs: ArgSpecs, input: Input, ctx?: CallContext) => {
    const call = beginCall(config, ctx);
    const trashed = await runWrite(call, async (c) => {
      const { post } = await locate(c, specs, input);
      requirePermission(c, c.permissions.canDelete(kind, post));
      if (post.status === 'trash') throw new CalendarError(`${kind}_in_trash`, kind === 'venue' ? msg('The venue is already trashed') : msg('The organizer is already trashed'));
      checkPreconditions(c.preconditions, () => linkedPostValidator(kind, post));
      const now = stamps(c.now, config.zone);
      const slug = await resolveSlug({ requested: undefined, current: post.slug, title: post.title, id: post.id, status: 'trash', taken: async () => false });
      const record = { ...post, status: 'trash' as const, slug, modified: now.local, modifiedUtc: now.utc, revision: c.storage.change };
      await collection(c).replace(record);
      // Deleting a venue or organizer unlinks it from every event (behaviour.md §10.8).
      await c.storage.events.unlink(kind, post.id, c.storage.change);
      return record;
    });
    return withValidator(render(call, trashed), linkedPostValidator(kind, trashed));
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
      ['modified_after', values.modified_after as string | number | undefined], ['modified_before', values.modified_before as string | number | undefined],
    ], page, page < pages, page > 1 && page - 1 <= pages);
    const items = result.items.map((post) => {
      const body = render(call, post);
      return isUnlocked(call, kind, post, values as Unlock) ? body : redactProtected(body);
    });
    return listResult({ body: postListBody(`${kind}s`, items, links, result.total, pages) as VenueListJson | OrganizerListJson }, links, result.total, pages, validator);
  };

  const planList = async (input: Input = {}, ctx?: CallContext): Promise<ListPlan<VenueListJson | OrganizerListJson>> => {
    const call = beginCall(config, ctx);
    const p = await planWithCache(call, `${kind}s`, input, async (lastChange) => {
      const { values, page, perPage } = await parseList(call, listArgs, input);
      const visible = visibility(call.permissions, kind, values.status as string[] | undefined);
      const query = listQuery(call, kind, values as Values, visible, page, perPage);
      const validator = listValidator(lastChange, [kind, query, values, listViewKey(call)]);
      // only_with_upcoming counts events from this very instant; modified bounds may be relative.
      return { plan: { values, visible, query, page, perPage, validator }, keep: !values.only_with_upcoming && !MODIFIED_PARAMS.some((p) => values[p] !== undefined) };
    });
    return { validator: p.validator, run: () => readList(call, p, () => runList(call, p.values, p.visible, p.query, p.page, p.perPage, p.validator)) };
  };

  return {
    planList,
    list: async (input = {}, ctx) => (await planList(input, ctx)).run(),
    get: (input, ctx) => read(byId, input, ctx),
    getBySlug: (input, ctx) => read(bySlug, input, ctx),
    async create(input, ctx) {
      const call = beginCall(config, ctx);
      const post = await runWrite(call, async (c) => {
        const { values } = await parseArgs(createArgs, input, c.args);
        requirePermission(c, c.permissions.can(`edit_${kind}s`));
        return (await collection(c).get(await createOrReuse(c, kind, values as Values)))!;
      });
      return withValidator(render(call, post), linkedPostValidator(kind, post));
    },
    update: (input, ctx) => write(byId, input, ctx, 'replace'),
    updateBySlug: (input, ctx) => write(bySlug, input, ctx, 'replace'),
    patch: (input, ctx) => write(byId, input, ctx, 'patch'),
    patchBySlug: (input, ctx) => write(bySlug, input, ctx, 'patch'),
    delete: (input, ctx) => remove(byId, input, ctx),
    deleteBySlug: (input, ctx) => remove(bySlug, input, ctx),
  };

  function collection(call: Call): LinkedPostCollection<LinkedRecord> {
    return (kind === 'venue' ? call.storage.venues : call.storage.organizers) as LinkedPostCollection<LinkedRecord>;
  }

  function render(call: Call, post: LinkedRecord, options: { jsonLd?: boolean } = {}): VenueJson | OrganizerJson {
    return kind === 'venue' ? venueJson(call.links, post as VenueRecord, options) : organizerJson(call.links, post as OrganizerRecord, options);
  }
}

/**
 * Creates a venue or organizer from validated create values, or — when a non-trashed one has
 * the same name (and description, when one is given), ignoring case — reuses it, overwriting
 * its fields with the ones sent if the caller may edit it (behaviour.md §4.4). Returns the id.
 */
export async function createOrReuse(call: WriteCall, kind: LinkedPostKind, values: Values): Promise<number> {
  const coll = (kind === 'venue' ? call.storage.venues : call.storage.organizers) as LinkedPostCollection<LinkedRecord>;
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
      kept = await applyWrite(call, kind, duplicate, pick(values, [...META_FIELDS[kind], 'show_map', 'show_map_link', 'image', 'geo_lat', 'geo_lng']), 'patch');
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
export function newLinkedPost(call: WriteCall, kind: LinkedPostKind, id: number, values: Values): Promise<LinkedRecord> {
  return applyWrite(call, kind, blankRecord(kind, id, call.principal?.id ?? 0), values, 'replace', true);
}

// ---- helpers ----

function listQuery(call: Call, kind: LinkedPostKind, values: Values, visible: Visibility, page: number, perPage: number): LinkedPostQuery {
  // Events count only when the caller could see them in lists: editors see others' unpublished events.
  const seesOthersEvents = call.permissions.can('edit_others_events');
  const search = values.search === undefined ? undefined : fragmentWords(String(values.search));
  return {
    statuses: visible.statuses,
    ...(visible.ownedBy ? { ownedBy: visible.ownedBy } : {}),
    ...(search && search.length > 0 ? { search } : {}),
    ...(values.event !== undefined ? { eventId: values.event as number } : {}),
    // has_events counts events that are not drafts or pending (behaviour.md §2.2); only published ones
    // for callers who cannot see others' unpublished events.
    ...(values.has_events !== undefined ? {
      hasEvents: { value: values.has_events as boolean, eventStatuses: seesOthersEvents ? ['publish', 'future', 'private', 'trash'] : PUBLIC_STATUSES },
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
  call: WriteCall, kind: LinkedPostKind, post: LinkedRecord, values: Values, mode: 'replace' | 'patch', creating = false,
): Promise<LinkedRecord> {
  const site = call.config.zone;
  const now = stamps(call.now, site);
  const has = (k: string) => values[k] !== undefined;
  const str = (k: string, fallback: string) => (has(k) ? String(values[k]).trim() : fallback);

  const requested = values.status as PostStatus | undefined;
  let status: PostStatus = mode === 'replace' || requested !== undefined ? scaleBackStatus(call, requested) : post.status;
  const explicit = explicitDates(
    has('date') ? siteWallClock(values.date, site, call.now) : undefined,
    has('date_utc') ? utcWallClock(values.date_utc, resolveZone('UTC')!, call.now) : undefined,
    site, site,
  );
  const dates = publishDates(creating ? undefined : post, explicit, status, now);
  status = scheduleStatus(status, dates.dateUtc, call.now);
  const title = str(kind, post.title);
  const image = has('image')
    ? (values.image === '' ? null : (await resolveImage(values.image as string | number, call.args)) ?? null)
    : mode === 'replace' ? null : post.image;
  const slug = await resolveSlug({
    requested: values.slug as string | undefined, current: post.slug, title, id: post.id, status, slugFromTitle: creating,
    taken: async (s) => {
      const other = await (kind === 'venue' ? call.storage.venues : call.storage.organizers).getBySlug(s);
      return other !== undefined && other.id !== post.id;
    },
  });
  const base = {
    ...post,
    authorId: has('author') ? (values.author as number) : post.authorId,
    status,
    slug,
    title,
    description: str('description', post.description),
    date: dates.date,
    dateUtc: dates.dateUtc,
    modified: now.local,
    modifiedUtc: now.utc,
    image,
    revision: call.storage.change,
    phone: str('phone', post.phone),
    website: str('website', post.website),
  };
  if (kind === 'organizer') return { ...(base as OrganizerRecord), email: str('email', (post as OrganizerRecord).email) };

  const venue = post as VenueRecord;
  const flag = (k: 'show_map' | 'show_map_link', current: boolean) => (has(k) ? (values[k] as boolean) : mode === 'replace' ? true : current);
  const fields = Object.fromEntries(['address', 'city', 'country', 'province', 'state', 'zip'].map((k) => [k, str(k, venue[k as keyof VenueRecord] as string)]));
  const stateprovince = has('stateprovince') ? str('stateprovince', '') : mode === 'replace'
    ? deriveStateProvince(str('state', ''), str('province', ''), str('country', ''))
    : venue.stateprovince;
  return {
    ...(base as VenueRecord),
    ...fields,
    stateprovince,
    showMap: flag('show_map', venue.showMap),
    showMapLink: flag('show_map_link', venue.showMapLink),
    geoLat: has('geo_lat') ? (values.geo_lat as number) : venue.geoLat,
    geoLng: has('geo_lng') ? (values.geo_lng as number) : venue.geoLng,
  };
}

/** The state for US venues (or with no country), else the province (behaviour.md §4.4). */
export function deriveStateProvince(state: string, province: string, country: string): string {
  if (state && (country === '' || /^(US|USA|United States( of America)?)$/i.test(country))) return state;
  return province;
}

function pick(values: Values, keys: readonly string[]): Values {
  return Object.fromEntries(keys.filter((k) => values[k] !== undefined).map((k) => [k, values[k]]));
}

export type { ArgValues };
