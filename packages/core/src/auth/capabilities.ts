// Who may do what (behaviour.md §5): WordPress's default roles with the capabilities The
// Events Calendar grants them, and the meta-capability rules for one record ("edit this
// event"). Apps can pass their own role table or capability lists on the principal.
import type { PostKind, PostRecord } from '../model/records';

/** A general capability. Post capabilities exist per kind: `edit_events`, `edit_venues`, ... */
export type Capability =
  | `${'edit' | 'edit_others' | 'edit_published' | 'edit_private' | 'publish' | 'read_private'
    | 'delete' | 'delete_others' | 'delete_published' | 'delete_private'}_${PostKindPlural}`
  | 'upload_files'
  | 'manage_categories'
  | 'unfiltered_html';

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
  administrator: EDITOR,
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

export function permissionsFor(principal: Principal | undefined, roles: RoleTable = DEFAULT_ROLES): Permissions {
  const caps = new Set<Capability>([
    ...(principal?.role ? roles[principal.role] ?? [] : []),
    ...(principal?.capabilities ?? []),
  ]);
  const can = (cap: Capability) => caps.has(cap);
  const own = (post: PostRecord) => principal !== undefined && principal.id !== 0 && post.authorId === principal.id;

  // WordPress map_meta_cap for edit_post / delete_post.
  const mayChange = (verb: 'edit' | 'delete', kind: PostKind, post: PostRecord): boolean => {
    const k = plural(kind);
    if (!can(`${verb}_${k}`)) return false;
    const status = post.status;
    if (own(post)) {
      return status === 'publish' || status === 'future' ? can(`${verb}_published_${k}`) : true;
    }
    if (!can(`${verb}_others_${k}`)) return false;
    if (status === 'publish' || status === 'future') return can(`${verb}_published_${k}`);
    if (status === 'private') return can(`${verb}_private_${k}`);
    return true;
  };

  return {
    principal,
    can,
    canEdit: (kind, post) => mayChange('edit', kind, post),
    canDelete: (kind, post) => mayChange('delete', kind, post),
    canRead: (kind, post) => {
      if (post.status === 'publish') return true;
      if (own(post)) return true;
      if (post.status === 'private') return can(`read_private_${plural(kind)}`);
      return mayChange('edit', kind, post);
    },
  };
}

export function plural(kind: PostKind): PostKindPlural {
  return `${kind}s` as PostKindPlural;
}
