/** The starting point the editor offers on an empty store: OpenFGA's documents-and-folders shape, schema 1.1. */
export const EXAMPLE_MODEL = `model
  schema 1.1

type user

type group
  relations
    define member: [user]

type folder
  relations
    define owner: [user]
    define viewer: [user, group#member] or owner

type document
  relations
    define parent: [folder]
    define owner: [user]
    define editor: [user, group#member] or owner
    define viewer: [user, user:*, group#member] or editor or viewer from parent
`;
