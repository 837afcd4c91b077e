import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

/**
 * A WebAuthn authenticator in software, for tests: it keeps ES256 (P-256) key pairs and answers a ceremony's
 * options with what a browser would send (attestation "none" on registration, a real ECDSA signature on
 * sign-in), so the server's WebAuthn library verifies real answers rather than stubs.
 */

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

const flags = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attestedData: 0x40 } as const;

export interface SoftwareCredential {
  /** base64url, as the server stores it. */
  id: string;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  signCount: number;
}

/** A credential's public key as COSE EC2 (kty 2, alg -7 ES256, crv 1 P-256, x, y), CBOR-encoded. */
export function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  const key = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, Buffer.from(jwk.x!, "base64url")],
    [-3, Buffer.from(jwk.y!, "base64url")],
  ]);
  return isoCBOR.encode(key);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
}

/** The browser's answer with a platform credential: its id, the client data, and the ceremony's own fields. */
function answerOf<R extends object>(credentialId: string, clientDataJSON: Buffer, response: R) {
  return {
    id: credentialId,
    rawId: credentialId,
    type: "public-key" as const,
    response: { clientDataJSON: b64url(clientDataJSON), ...response },
    authenticatorAttachment: "platform",
    clientExtensionResults: {},
  };
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

export interface AuthenticatorOptions {
  /** The page's origin the browser would report; the server compares it with its own. */
  origin: string;
  /** Whether the authenticator verifies its user (a PIN, a fingerprint); yes unless told. */
  userVerified?: boolean;
  /** Whether it counts its signatures; many synced passkeys always report 0, so only the challenge stops a replay. */
  countsSignatures?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  private readonly origin: string;
  private readonly userVerified: boolean;
  private readonly countsSignatures: boolean;

  constructor(options: AuthenticatorOptions) {
    this.origin = options.origin;
    this.userVerified = options.userVerified ?? true;
    this.countsSignatures = options.countsSignatures ?? true;
  }

  private flagsByte(extra: number): number {
    return flags.userPresent | (this.userVerified ? flags.userVerified : 0) | extra;
  }

  /** Answers registration options (the server's JSON) as the browser would: a new key pair, attestation "none". */
  register(options: Record<string, unknown>, overrides: { challenge?: string; origin?: string } = {}) {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const credentialId = randomBytes(32);
    const credential: SoftwareCredential = {
      id: b64url(credentialId),
      rpId: rp.id,
      userHandle: user.id,
      privateKey,
      publicKey,
      signCount: 0,
    };
    this.credentials.push(credential);
    const credentialIdLength = Buffer.alloc(2);
    credentialIdLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(rp.id),
      Buffer.from([this.flagsByte(flags.attestedData | flags.backupEligible | flags.backedUp)]),
      uint32(credential.signCount),
      Buffer.alloc(16), // AAGUID: none
      credentialIdLength,
      credentialId,
      coseKey(publicKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", new Uint8Array(authData)],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    const clientDataJSON = clientData("webauthn.create", overrides.challenge ?? String(options.challenge), overrides.origin ?? this.origin);
    return answerOf(credential.id, clientDataJSON, {
      attestationObject: b64url(attestationObject),
      transports: ["internal"],
      publicKeyAlgorithm: -7,
    });
  }

  /**
   * Answers sign-in options with the credential given, or the first one allowed, or (a discoverable sign-in) the
   * first one of the RP: authData = SHA-256(rpId) | flags | counter, signed with clientDataJSON's SHA-256.
   */
  authenticate(options: Record<string, unknown>, pick: { credential?: SoftwareCredential; origin?: string } = {}) {
    const rpId = String(options.rpId);
    const allowed = (options.allowCredentials as { id: string }[] | undefined) ?? [];
    const credential =
      pick.credential ??
      this.credentials.find((each) => each.rpId === rpId && (allowed.length === 0 || allowed.some((allow) => allow.id === each.id)));
    if (!credential) throw new Error("the software authenticator holds no credential for these options");
    if (this.countsSignatures) credential.signCount += 1;
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flagsByte(flags.backupEligible | flags.backedUp)]),
      uint32(credential.signCount),
    ]);
    const clientDataJSON = clientData("webauthn.get", String(options.challenge), pick.origin ?? this.origin);
    // ECDSA over authData || SHA-256(clientDataJSON), DER-encoded as WebAuthn sends it.
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return answerOf(credential.id, clientDataJSON, {
      authenticatorData: b64url(authData),
      signature: b64url(signature),
      userHandle: credential.userHandle,
    });
  }
}
