/**
 * What the database announces as a write commits: its triggers send a NOTIFY on one of two channels with a JSON
 * object of ids, which every server instance hears and reads again what they name (an open event stream turns a
 * live change into the events of live-events.ts). The payloads are declared here once: the server parses them with
 * these tables, and a test holds every trigger of the database to them.
 */
export const changeChannels = {
  /** What a cached session may depend on changed: a session, a user, a membership, a company. */
  auth: "quorum_auth",
  /** What open event streams show changed: votes, resolutions, notifications, meetings, documents. */
  live: "quorum_live",
} as const;

/** An auth change names whichever of these it concerns (at least one): the payload's key, and the name it is read as. */
export const authChangeFields = { s: "sessionId", u: "userId", c: "companyId" } as const;

export type AuthChange = { -readonly [Key in keyof typeof authChangeFields as (typeof authChangeFields)[Key]]?: number };

/** A payload's field: an id (a positive integer) unless it names the words it may hold. */
export interface LiveChangeField {
  name: string;
  optional?: true;
  oneOf?: readonly string[];
}

/**
 * A live change's payload is `{"k": <kind's key>, ...its fields}`: each kind's key, the kind it is read as, and its
 * fields by their keys in the payload. A meeting's company is absent when a part of the meeting changed.
 */
export const liveChangeKinds = {
  v: { kind: "votes", fields: { r: { name: "resolutionId" } } },
  r: { kind: "resolution", fields: { r: { name: "resolutionId" }, c: { name: "companyId" } } },
  n: { kind: "notification", fields: { n: { name: "notificationId" }, u: { name: "userId" } } },
  m: { kind: "meeting", fields: { m: { name: "meetingId" }, c: { name: "companyId", optional: true } } },
  d: {
    kind: "document",
    fields: { d: { name: "documentId" }, c: { name: "companyId" }, a: { name: "change", oneOf: ["added", "replaced", "removed"] } },
  },
} as const satisfies Record<string, { kind: string; fields: Record<string, LiveChangeField> }>;

type Kinds = typeof liveChangeKinds;
type FieldValue<Field> = Field extends { oneOf: readonly (infer Word)[] } ? Word : number;
type NameOf<Field> = Field extends { name: infer Name extends string } ? Name : never;
type ChangeOf<Fields> = {
  [Key in keyof Fields as Fields[Key] extends { optional: true } ? never : NameOf<Fields[Key]>]: FieldValue<Fields[Key]>;
} & {
  [Key in keyof Fields as Fields[Key] extends { optional: true } ? NameOf<Fields[Key]> : never]?: FieldValue<Fields[Key]>;
};
type Flat<T> = { [Key in keyof T]: T[Key] } & {};

/** Something an open event stream shows changed, as the server reads a live change's payload. */
export type LiveChange = { [Key in keyof Kinds]: Flat<{ kind: Kinds[Key]["kind"] } & ChangeOf<Kinds[Key]["fields"]>> }[keyof Kinds];
