/**
 * The data of bench/fga-scale.ts: an organization-shaped FGA model and a deterministic set of tuples
 * (1,000,000 by default), plus the [object, user] pairs each kind of check is measured on.
 *
 * Shape, per organization (25 of them at 1,000,000 tuples): 4,000 users, all org members and 3 org admins;
 * 400 groups of 15 members, one group in forty nested in the next one; 800 folders (half of them inside
 * another folder of the org), each owned by a user and viewable by two groups; 10,000 documents, each in a
 * folder with an owner; the remaining tuples are document viewers (users, groups, or the whole org).
 * An org admin sees every document of the org through `admin from org` on folders: the 10,000 objects
 * list_objects is measured on.
 */
import type { TupleKey } from '../server/modules/fga/types.ts';

export const SCALE_DSL = `model
  schema 1.1
type user
type org
  relations
    define admin: [user]
    define member: [user] or admin
type group
  relations
    define member: [user, group#member]
type folder
  relations
    define org: [org]
    define parent: [folder]
    define owner: [user]
    define viewer: [user, group#member] or owner or viewer from parent or admin from org
type document
  relations
    define parent: [folder]
    define owner: [user]
    define editor: [user, group#member] or owner
    define viewer: [user, group#member, org#member] or editor or viewer from parent
`;

/** A deterministic pseudo-random sequence, so every run and store sees the same data and checks. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

export type Pair = [object: string, user: string];

export interface ScaleDataset {
  /** Yields the tuples in batches (never all held at once as objects). */
  batches(size: number): Generator<TupleKey[]>;
  total: number;
  orgs: number;
  usersPerOrg: number;
  documentsPerOrg: number;
  /** Allowed by a tuple naming the user on the document. */
  direct: Pair[];
  /** Allowed through a group#member tuple on the document (the user a direct member of the group). */
  userset: Pair[];
  /** Allowed through the document's folder, or the folder's parent folder, viewable by a group of the user. */
  parentFolder: Pair[];
  /** An org admin of each org: list_objects sees its 10,000 documents. */
  admins: string[];
}

export function scaleDataset(total: number): ScaleDataset {
  const orgs = Math.max(1, Math.floor(total / 40_000));
  const usersPerOrg = 4_000;
  const groupsPerOrg = 400;
  const foldersPerOrg = 800;
  const documentsPerOrg = 10_000;
  const membersPerGroup = 15;
  let next = random(2026);
  const pick = (n: number) => Math.floor(next() * n);
  const user = (o: number, k: number) => `user:u${o * usersPerOrg + k}`;
  const group = (o: number, k: number) => `group:g${o * groupsPerOrg + k}`;
  const folder = (o: number, k: number) => `folder:f${o * foldersPerOrg + k}`;
  const document = (o: number, k: number) => `document:d${o * documentsPerOrg + k}`;

  const members: string[][] = [];
  const folderGroups: number[][] = [];
  const folderParent: Array<number | undefined> = [];
  const direct: Pair[] = [];
  const userset: Pair[] = [];
  const parentFolder: Pair[] = [];
  const admins: string[] = [];
  let produced = 0;

  function* all(): Generator<TupleKey> {
    for (let o = 0; o < orgs; o++) {
      for (let k = 0; k < usersPerOrg; k++) yield { object: `org:o${o}`, relation: 'member', user: user(o, k) };
      for (let k = 0; k < 3; k++) {
        yield { object: `org:o${o}`, relation: 'admin', user: user(o, k) };
        if (k === 0) admins.push(user(o, k));
      }
      for (let g = 0; g < groupsPerOrg; g++) {
        const list = new Set<string>();
        while (list.size < membersPerGroup) list.add(user(o, 3 + pick(usersPerOrg - 3)));
        members[o * groupsPerOrg + g] = [...list];
        for (const u of list) yield { object: group(o, g), relation: 'member', user: u };
        if (g % 40 === 0 && g + 1 < groupsPerOrg) yield { object: group(o, g + 1), relation: 'member', user: `${group(o, g)}#member` };
      }
      for (let f = 0; f < foldersPerOrg; f++) {
        yield { object: folder(o, f), relation: 'org', user: `org:o${o}` };
        yield { object: folder(o, f), relation: 'owner', user: user(o, 3 + pick(usersPerOrg - 3)) };
        if (f >= foldersPerOrg / 2) {
          folderParent[o * foldersPerOrg + f] = f - foldersPerOrg / 2;
          yield { object: folder(o, f), relation: 'parent', user: folder(o, f - foldersPerOrg / 2) };
        }
        const a = pick(groupsPerOrg);
        const b = (a + 1 + pick(groupsPerOrg - 1)) % groupsPerOrg;
        folderGroups[o * foldersPerOrg + f] = [a, b];
        yield { object: folder(o, f), relation: 'viewer', user: `${group(o, a)}#member` };
        yield { object: folder(o, f), relation: 'viewer', user: `${group(o, b)}#member` };
      }
      for (let d = 0; d < documentsPerOrg; d++) {
        const f = pick(foldersPerOrg);
        yield { object: document(o, d), relation: 'parent', user: folder(o, f) };
        yield { object: document(o, d), relation: 'owner', user: user(o, 3 + pick(usersPerOrg - 3)) };
        if (parentFolder.length < 20_000 && d % 10 === 0) {
          // The group of the folder's parent when there is one (two hops up), else of the folder itself.
          const holder = folderParent[o * foldersPerOrg + f] ?? f;
          const list = members[o * groupsPerOrg + folderGroups[o * foldersPerOrg + holder]![0]!]!;
          parentFolder.push([document(o, d), list[pick(list.length)]!]);
        }
      }
    }
    // Document viewers until the total: mostly users, then groups, a few shared with the whole org.
    for (let i = 0; produced < total; i++) {
      const o = i % orgs;
      const d = Math.floor(i / orgs) % documentsPerOrg;
      const kind = i % 20;
      if (kind < 12) {
        const u = user(o, 3 + pick(usersPerOrg - 3));
        if (direct.length < 20_000) direct.push([document(o, d), u]);
        yield { object: document(o, d), relation: 'viewer', user: u };
      } else if (kind < 19) {
        const g = pick(groupsPerOrg);
        const list = members[o * groupsPerOrg + g]!;
        if (userset.length < 20_000) userset.push([document(o, d), list[pick(list.length)]!]);
        yield { object: document(o, d), relation: 'viewer', user: `${group(o, g)}#member` };
      } else {
        yield { object: document(o, d), relation: 'viewer', user: `org:o${o}#member` };
      }
    }
  }

  const dataset: ScaleDataset = {
    total,
    orgs,
    usersPerOrg,
    documentsPerOrg,
    direct,
    userset,
    parentFolder,
    admins,
    *batches(size: number) {
      // Only document viewers can repeat (a document gets a second viewer past 250,000 of them).
      // Every pass generates the same tuples and pairs from the start.
      next = random(2026);
      for (const list of [members, folderGroups, folderParent, direct, userset, parentFolder, admins]) list.length = 0;
      produced = 0;
      let batch: TupleKey[] = [];
      const seen = new Set<string>();
      for (const tuple of all()) {
        if (produced >= total) break;
        if (tuple.relation === 'viewer' && tuple.object.startsWith('document:')) {
          const key = `${tuple.object}@${tuple.user}`;
          if (seen.has(key)) continue;
          seen.add(key);
        }
        batch.push(tuple);
        produced++;
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
  };
  return dataset;
}
