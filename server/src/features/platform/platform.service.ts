import { and, asc, eq, ne } from "drizzle-orm";
import {
  isMessagingService,
  maskEllipsis,
  maskedSecretUrl,
  serviceNames,
  type CreatePlatformServiceInput,
  type PlatformService,
  type UpdatePlatformServiceInput,
} from "../../../../shared/platform";
import type { ServiceDeps } from "../../app-deps";
import type { Clock } from "../../clock";
import type { Queryable } from "../../db/client";
import { recordAudit } from "../../db/audit";
import { equalsIgnoringCase } from "../../db/case-insensitive";
import { platformServices } from "../../db/schema";
import { badRequest, conflict, isUniqueViolation, notFound, secondFactorRequired } from "../../http/errors";
import { MailConfigError, parseSmtpUrl } from "../../integrations/mailer";
import { OutboundAddressError, checkHttpServiceUrl, checkTarget, type OutboundPolicy } from "../../integrations/outbound-address";
import { encryptSecret, maskSecret } from "../../integrations/secrets";
import { encryptServiceUrl, isEncryptedServiceUrl } from "../../integrations/service-credentials";
import { tellPlatformAdmins } from "../notifications/outbox.service";

type PlatformDeps = ServiceDeps<"db" | "clock" | "appSecret" | "outbound">;

type ServiceRow = typeof platformServices.$inferSelect;

/** The only shape a service leaves the server in: the key masked, a secret URL masked. Never decrypts. */
function toPlatformService(row: ServiceRow): PlatformService {
  const urlIsSecret = isEncryptedServiceUrl(row.serviceUrl);
  return {
    id: row.id,
    serviceName: row.serviceName,
    serviceKey: row.serviceKeyPreview,
    hasKey: row.serviceKeyEncrypted.length > 0,
    serviceUrl: urlIsSecret ? maskedSecretUrl : row.serviceUrl,
    serviceUrlIsSecret: urlIsSecret,
    isEnabled: row.isEnabled,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const duplicateName = (name: string) => conflict(`A service named "${name}" already exists`);
const auditTarget = "platform_service";
const emptyToNull = (value: string | null | undefined) => (value == null || value === "" ? null : value);

/** Checked first for a clear answer; the unique index on lower(service_name) settles races (see withUniqueName). */
async function assertNameFree(db: Queryable, name: string, exceptId?: number): Promise<void> {
  const sameName = equalsIgnoringCase(platformServices.serviceName, name);
  const [existing] = await db
    .select({ id: platformServices.id })
    .from(platformServices)
    .where(exceptId == null ? sameName : and(sameName, ne(platformServices.id, exceptId)))
    .limit(1);
  if (existing) throw duplicateName(name);
}

async function withUniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // A concurrent write with the same name got past the check first.
    if (isUniqueViolation(error)) throw duplicateName(name);
    throw error;
  }
}

/** An optional URL from a body: empty is none; the stored form of a secret URL is never accepted as a URL. */
function checkedUrl(value: string | null | undefined): string | null {
  const url = emptyToNull(value);
  if (url !== null && (isEncryptedServiceUrl(url) || url === maskedSecretUrl))
    throw badRequest("Enter the URL (or auth token) itself, not its masked form");
  return url;
}

/**
 * A URL the server will connect to, checked as it is saved (the same checks run again, after DNS, as it connects):
 * the e-mail service's is smtp(s):// to a host that is not a private address; any other is https://. Hosts in
 * OUTBOUND_ALLOWED_HOSTS may use http:// and private addresses. The messaging service's "URL" is its auth token.
 */
function assertReachableUrl(outbound: OutboundPolicy, serviceName: string, url: string | null): void {
  if (url === null || isMessagingService(serviceName)) return;
  try {
    if (serviceName.trim().toLowerCase() === serviceNames.email.toLowerCase()) {
      const smtp = parseSmtpUrl(url, "");
      checkTarget(outbound, smtp.host, smtp.port);
    } else {
      checkHttpServiceUrl(outbound, url);
    }
  } catch (error) {
    if (error instanceof OutboundAddressError || error instanceof MailConfigError) throw badRequest(error.message);
    throw error;
  }
}

/** Why an update that moves a service to another address was refused: the old key must not follow it there. */
export const keyAgainForNewAddress = "Enter the key again for the new address";

/** Stores a URL: the messaging service's (its auth token) encrypted, any other as it is. */
function storedUrl(serviceName: string, url: string | null, appSecret: string): string | null {
  if (url == null) return null;
  return isMessagingService(serviceName) ? encryptServiceUrl(url, appSecret) : url;
}

/** How recently a session must have passed a second factor to change service keys. */
export const serviceKeySecondFactorMaxAgeMs = 12 * 60 * 60 * 1000;

/**
 * Service keys unlock the platform's outside services: changing them needs a session that passed a second factor
 * in the last 12 hours, so a stolen password (or an old session) alone cannot. Reading them (masked) does not.
 */
export function assertRecentSecondFactor(clock: Clock, secondFactorAt: Date | null): void {
  const age = secondFactorAt === null ? Infinity : clock.now().getTime() - secondFactorAt.getTime();
  if (!(age <= serviceKeySecondFactorMaxAgeMs)) {
    throw secondFactorRequired(
      "Changing service keys needs a sign-in with a second factor in the last 12 hours. Sign out and sign in again with your second factor.",
    );
  }
}

export async function listServices({ db }: ServiceDeps<"db">): Promise<PlatformService[]> {
  const rows = await db.select().from(platformServices).orderBy(asc(platformServices.id));
  return rows.map(toPlatformService);
}

export async function createService(deps: PlatformDeps, actorId: number, input: CreatePlatformServiceInput): Promise<PlatformService> {
  const { db, clock, appSecret } = deps;
  if (input.serviceKey.includes(maskEllipsis)) throw badRequest("Enter the full service key, not its masked form");
  const url = checkedUrl(input.serviceUrl);
  assertReachableUrl(deps.outbound, input.serviceName, url);
  const now = clock.now();
  return withUniqueName(input.serviceName, () =>
    db.transaction(async (tx) => {
      await assertNameFree(tx, input.serviceName);
      const [row] = await tx
        .insert(platformServices)
        .values({
          serviceName: input.serviceName,
          serviceKeyEncrypted: encryptSecret(input.serviceKey, appSecret),
          serviceKeyPreview: maskSecret(input.serviceKey),
          serviceUrl: storedUrl(input.serviceName, url, appSecret),
          isEnabled: input.isEnabled,
          description: emptyToNull(input.description),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error("platform service insert returned nothing");
      await recordAudit(tx, clock, {
        actorId,
        action: "platform_service.created",
        targetType: auditTarget,
        targetId: row.id,
        details: { serviceName: row.serviceName, isEnabled: row.isEnabled },
      });
      await tellPlatformAdmins(tx, clock, actorId, `added the service “${row.serviceName}”${row.isEnabled ? "" : " (disabled)"}.`);
      return toPlatformService(row);
    }),
  );
}

export async function updateService(
  deps: PlatformDeps,
  actorId: number,
  id: number,
  input: UpdatePlatformServiceInput,
): Promise<PlatformService> {
  const { db, clock, appSecret } = deps;
  const now = clock.now();
  const name = input.serviceName;
  return withUniqueName(name ?? "", () =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(platformServices).where(eq(platformServices.id, id)).for("update");
      if (!current) throw notFound("Service not found");

      const changes: Partial<ServiceRow> = {};
      const changed: string[] = [];

      if (name !== undefined && name !== current.serviceName) {
        if (name.toLowerCase() !== current.serviceName.toLowerCase()) await assertNameFree(tx, name, id);
        changes.serviceName = name;
        changed.push("serviceName");
      }
      const nextName = changes.serviceName ?? current.serviceName;

      // An empty key, or the masked one the API answered, keeps the stored key.
      const key = input.serviceKey ?? "";
      if (key !== "" && key !== current.serviceKeyPreview) {
        if (key.includes(maskEllipsis)) throw badRequest("Enter the full service key, or leave it empty to keep the stored one");
        changes.serviceKeyEncrypted = encryptSecret(key, appSecret);
        changes.serviceKeyPreview = maskSecret(key);
        changed.push("serviceKey");
      }

      // Absent or the mask: keep. Empty or null: clear. Anything else: the new URL.
      if (input.serviceUrl !== undefined && input.serviceUrl !== maskedSecretUrl) {
        const url = checkedUrl(input.serviceUrl);
        const same = url === current.serviceUrl && (url === null || !isMessagingService(nextName));
        if (!same) {
          assertReachableUrl(deps.outbound, nextName, url);
          // The stored key goes wherever the URL points: at a new address it is used only once entered again.
          if (!isMessagingService(nextName) && !changes.serviceKeyEncrypted) throw badRequest(keyAgainForNewAddress);
          changes.serviceUrl = storedUrl(nextName, url, appSecret);
          changed.push("serviceUrl");
        }
      } else if (isMessagingService(nextName) && current.serviceUrl !== null && !isEncryptedServiceUrl(current.serviceUrl)) {
        // Renamed to the messaging service: its URL field is now an auth token, so it is kept secret from here on.
        changes.serviceUrl = encryptServiceUrl(current.serviceUrl, appSecret);
        changed.push("serviceUrl");
      } else if (changes.serviceName && current.serviceUrl !== null && !isEncryptedServiceUrl(current.serviceUrl)) {
        // Renamed to another kind of service: the URL it keeps must meet that kind's rule.
        assertReachableUrl(deps.outbound, nextName, current.serviceUrl);
      }

      if (input.description !== undefined) {
        const description = emptyToNull(input.description);
        if (description !== current.description) {
          changes.description = description;
          changed.push("description");
        }
      }
      if (input.isEnabled !== undefined && input.isEnabled !== current.isEnabled) {
        changes.isEnabled = input.isEnabled;
        changed.push("isEnabled");
      }

      if (changed.length === 0) return toPlatformService(current);

      const [row] = await tx
        .update(platformServices)
        .set({ ...changes, updatedAt: now })
        .where(eq(platformServices.id, id))
        .returning();
      if (!row) throw notFound("Service not found");
      await recordAudit(tx, clock, {
        actorId,
        action: "platform_service.updated",
        targetType: auditTarget,
        targetId: id,
        // Which fields changed, never their secret values.
        details: {
          serviceName: row.serviceName,
          ...(changes.serviceName ? { previousName: current.serviceName } : {}),
          changed,
          isEnabled: row.isEnabled,
        },
      });
      await tellPlatformAdmins(tx, clock, actorId, `updated the service “${row.serviceName}” (changed: ${changed.join(", ")}).`);
      return toPlatformService(row);
    }),
  );
}

export async function deleteService(deps: PlatformDeps, actorId: number, id: number): Promise<void> {
  const { db, clock } = deps;
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(platformServices)
      .where(eq(platformServices.id, id))
      .returning({ id: platformServices.id, serviceName: platformServices.serviceName });
    if (!removed) throw notFound("Service not found");
    await recordAudit(tx, clock, {
      actorId,
      action: "platform_service.deleted",
      targetType: auditTarget,
      targetId: id,
      details: { serviceName: removed.serviceName },
    });
    await tellPlatformAdmins(tx, clock, actorId, `removed the service “${removed.serviceName}”.`);
  });
}
