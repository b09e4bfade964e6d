// Who may do what (behaviour reference: "Authentication and permissions"): WordPress's default
// roles with the capabilities The Events Calendar grants them, and the meta-capability rules for
// one record ("edit this event"). Apps can pass their own role table or capability lists on the
// principal.
import type { PostKind, PostRecord } from '../model/records';

/** A general capability. Post capabilities exist per kind: `edit_events`, `edit_venues`, ... */
export type Capability =
  | `${'edit' | 'edit_others' | 'edit_published' | 'edit_private' | 'publish' | 'read_private'
    | 'delete' | 'delete_others' | 'delete_published' | 'delete_private'}_${PostKindPlural}`
  | 'upload_files'
  | 'manage_categories'
  | 'unfiltered_html'
  /** WordPress's administrator capability: here, managing webhook endpoints. */
  | 'manage_options';

export type PostKindPlural = 'events' | 'venues' | 'organizers';

/** The caller of an operation: a user id and either a role or explicit capabilities. */
export interface Principal {
  readonly id: number;
  /** A role of the role table (`administrator`, `editor`, `author`, `contributor`, `subscriber`). */
  readonly role?: string;
  /** Capabilities granted directly; added to those of the role. */
  readonly capabilities?: readonly Capability[];
}

export type RoleTable = Readonly<Record<string, readonly Capability[]>>;

/** A permission decision about to be made. */
export interface AuthorizationCheck {
  readonly principal: Principal | undefined;
  /** A general capability, or reading, editing or deleting one record. */
  readonly action: Capability | 'read_post' | 'edit_post' | 'delete_post';
  /** For the record actions: which kind of record, and the record. */
  readonly kind?: PostKind;
  readonly post?: PostRecord;
  /** What the role table decides. */
  readonly allowed: boolean;
}

/** Overrides permission decisions: return `check.allowed` to keep the role table's answer. */
export type Authorize = (check: AuthorizationCheck) => boolean;

const POST_KINDS: readonly PostKindPlural[] = ['events', 'venues', 'organizers'];
const each = (verbs: readonly string[]) => POST_KINDS.flatMap((k) => verbs.map((verb) => `${verb}_${k}` as Capability));

const CONTRIBUTOR = each(['edit', 'delete']);
const AUTHOR = [...CONTRIBUTOR, ...each(['edit_published', 'publish', 'delete_published']), 'upload_files' as const];
const EDITOR = [
  ...AUTHOR,
  ...each(['edit_others', 'edit_private', 'read_private', 'delete_others', 'delete_private']),
  'manage_categories' as const, 'unfiltered_html' as const,
];

/** WordPress's default roles, with The Events Calendar's capabilities. */
export const DEFAULT_ROLES: RoleTable = {
  administrator: [...EDITOR, 'manage_options'],
  editor: EDITOR,
  author: AUTHOR,
  contributor: CONTRIBUTOR,
  subscriber: [],
};

/** Answers capability questions for one principal under a role table. */
export interface Permissions {
  readonly principal: Principal | undefined;
  /** Whether the principal holds a general capability. */
  can(cap: Capability): boolean;
  /** `edit_post` for one record. */
  canEdit(kind: PostKind, post: PostRecord): boolean;
  /** `delete_post` for one record. */
  canDelete(kind: PostKind, post: PostRecord): boolean;
  /** `read_post` for one record. */
  canRead(kind: PostKind, post: PostRecord): boolean;
}

export function permissionsFor(principal: Principal | undefined, roles: RoleTable = DEFAULT_ROLES, authorize?: Authorize): Permissions {
  const caps = new Set<Capability>([
    ...(principal?.role ? roles[principal.role] ?? [] : []),
    ...(principal?.capabilities ?? []),
  ]);
  const decide = (action: AuthorizationCheck['action'], allowed: boolean, kind?: PostKind, post?: PostRecord) =>
    authorize ? authorize({ principal, action, allowed, ...(kind ? { kind } : {}), ...(post ? { post } : {}) }) : allowed;
  const has = (cap: Capability) => caps.has(cap);
  const can = (cap: Capability) => decide(cap, has(cap));
  const own = (post: PostRecord) => principal !== undefined && principal.id !== 0 && post.authorId === principal.id;

  // WordPress map_meta_cap for edit_post / delete_post, on the role table's capabilities.
  const mayChange = (verb: 'edit' | 'delete', kind: PostKind, post: PostRecord): boolean => {
    const k = plural(kind);
    if (!has(`${verb}_${k}`)) return false;
    const status = post.status;
    if (own(post)) {
      return status === 'publish' || status === 'future' ? has(`${verb}_published_${k}`) : true;
    }
    if (!has(`${verb}_others_${k}`)) return false;
    if (status === 'publish' || status === 'future') return has(`${verb}_published_${k}`);
    if (status === 'private') return has(`${verb}_private_${k}`);
    return true;
  };
  const mayRead = (kind: PostKind, post: PostRecord): boolean => {
    if (post.status === 'publish') return true;
    if (own(post)) return true;
    if (post.status === 'private') return has(`read_private_${plural(kind)}`);
    return mayChange('edit', kind, post);
  };

  return {
    principal,
    can,
    canEdit: (kind, post) => decide('edit_post', mayChange('edit', kind, post), kind, post),
    canDelete: (kind, post) => decide('delete_post', mayChange('delete', kind, post), kind, post),
    canRead: (kind, post) => decide('read_post', mayRead(kind, post), kind, post),
  };
}

export function plural(kind: PostKind): PostKindPlural {
  return `${kind}s` as PostKindPlural;
}
