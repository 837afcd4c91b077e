import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createTcpServer, isIP, type AddressInfo } from "node:net";
import { startSmtpCapture } from "../testing/smtp-capture";
import { AiServiceError, completeChat, type AiChatConfig } from "./ai-chat";
import { openMailTransport, type OutgoingMail } from "./mailer";
import { ObjectStoreConfigError, openObjectStore, type ObjectStoreConfig } from "./object-storage";
import { OutboundAddressError, checkHttpServiceUrl, isInsideAddress, type OutboundPolicy, type Resolver } from "./outbound-address";

/*
 * Every outbound client is pointed at addresses inside and must refuse before it connects. No real network: names
 * resolve through an injected resolver, and the "inside" targets are servers of this process on 127.0.0.1 that
 * count the connections they get, so a refusal that came after connecting would show.
 */

/** A TCP server that counts connections and closes each at once. */
async function startRecorder() {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    reset: () => {
      connections = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Names to addresses, recording what was asked; an unknown name does not resolve. */
function fakeResolver(names: Record<string, string>): { resolve: Resolver; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (hostname) => {
      asked.push(hostname);
      const address = names[hostname];
      if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      return [{ address, family: isIP(address) }];
    },
  };
}

let recorder: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  recorder = await startRecorder();
});
beforeEach(() => {
  recorder.reset();
});
afterAll(async () => {
  await recorder.close();
});

describe("which addresses are inside", () => {
  it("counts private, loopback, link-local, shared and unspecified addresses, IPv4 written as IPv6 too", () => {
    const inside = [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.5",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "0.0.0.0",
      "100.64.0.1",
      "::1",
      "::",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "::ffff:10.0.0.5",
      "0:0:0:0:0:ffff:7f00:1",
      "0000:0000:0000:0000:0000:ffff:a9fe:a9fe",
      "[::1]",
    ];
    for (const address of inside) expect(isInsideAddress(address), address).toBe(true);
    for (const address of ["8.8.8.8", "93.184.216.34", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "0:0:0:0:0:ffff:808:808"]) {
      expect(isInsideAddress(address), address).toBe(false);
    }
  });

  it("refuses http:// off the allow-list and private addresses written into a URL, in any spelling", () => {
    const policy: OutboundPolicy = { allowedHosts: ["local-ai.test:11434", "relay.test"], resolve: fakeResolver({}).resolve };
    const refused = [
      "http://169.254.169.254/latest/meta-data/",
      "https://10.0.0.5:6379",
      "https://127.0.0.1:5432",
      "https://[::1]/v1",
      "https://[::ffff:127.0.0.1]/v1",
      "https://2130706433/v1", // 127.0.0.1 as one number
      "https://0x7f.1/v1",
      "http://api.example.com/v1",
      "http://local-ai.test:8080/v1", // listed with another port
      "ftp://files.example.com/",
      "not a url",
    ];
    for (const url of refused) expect(() => checkHttpServiceUrl(policy, url), url).toThrow(OutboundAddressError);
    expect(checkHttpServiceUrl(policy, "https://api.example.com/v1")).toEqual({
      hostname: "api.example.com",
      port: 443,
      allowListed: false,
    });
    expect(checkHttpServiceUrl(policy, "http://local-ai.test:11434/v1").allowListed).toBe(true);
    expect(checkHttpServiceUrl(policy, "http://relay.test:9999/").allowListed).toBe(true);
  });
});

describe("the AI client", () => {
  const ask = (baseURL: string, outbound: OutboundPolicy) => {
    const config: AiChatConfig = { apiKey: "sk-never-sent-inside", baseURL, model: "m", timeoutMs: 3000, outbound };
    return completeChat(config, [{ role: "user", content: "Hello" }]).then(
      () => null,
      (error: unknown) => error,
    );
  };

  it("refuses literal private and metadata addresses, and http:// off the allow-list, before any lookup or connection", async () => {
    const dns = fakeResolver({ "api.example.com": "93.184.216.34" });
    const outbound = { allowedHosts: [], resolve: dns.resolve };
    for (const baseURL of [
      "http://169.254.169.254/latest",
      "https://10.0.0.5:6379/v1",
      `https://127.0.0.1:${recorder.port}/v1`,
      `http://127.0.0.1:${recorder.port}/v1`,
      `https://[::ffff:127.0.0.1]:${recorder.port}/v1`,
      "http://api.example.com/v1",
    ]) {
      const failure = await ask(baseURL, outbound);
      expect(failure, baseURL).toBeInstanceOf(AiServiceError);
      expect(failure, baseURL).toMatchObject({ failure: "refused-address" });
    }
    expect(dns.asked).toEqual([]);
    expect(recorder.connections()).toBe(0);
  });

  it("refuses a name that resolves to 127.0.0.1 after resolving it, before connecting", async () => {
    const dns = fakeResolver({ "inside.example": "127.0.0.1" });
    const failure = await ask(`https://inside.example:${recorder.port}/v1`, { allowedHosts: [], resolve: dns.resolve });
    expect(failure).toMatchObject({ failure: "refused-address" });
    expect((failure as Error).message).not.toContain("sk-never-sent-inside");
    expect(dns.asked).toEqual(["inside.example"]);
    expect(recorder.connections()).toBe(0);
  });

  describe("against an allow-listed server of its own", () => {
    let upstream: Server;
    let upstreamPort: number;
    const requests: { url: string; authorization: string | undefined }[] = [];
    let answer: (respond: (status: number, headers: Record<string, string>, body: string) => void) => void;
    beforeAll(async () => {
      upstream = createHttpServer((req, res) => {
        requests.push({ url: req.url ?? "", authorization: req.headers.authorization });
        req.resume();
        answer((status, headers, body) => res.writeHead(status, headers).end(body));
      });
      await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
      upstreamPort = (upstream.address() as AddressInfo).port;
    });
    afterAll(async () => {
      upstream.closeAllConnections();
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    });
    beforeEach(() => {
      requests.length = 0;
    });

    const completion = JSON.stringify({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "Fine words", refusal: null }, finish_reason: "stop", logprobs: null }],
    });

    it("reaches a listed name over http:// through the checked lookup", async () => {
      answer = (respond) => respond(200, { "content-type": "application/json" }, completion);
      const dns = fakeResolver({ "local-ai.test": "127.0.0.1" });
      const config: AiChatConfig = {
        apiKey: "sk-local",
        baseURL: `http://local-ai.test:${upstreamPort}/v1`,
        model: "m",
        timeoutMs: 3000,
        outbound: { allowedHosts: [`local-ai.test:${upstreamPort}`], resolve: dns.resolve },
      };
      expect(await completeChat(config, [{ role: "user", content: "Hello" }])).toBe("Fine words");
      expect(dns.asked).toEqual(["local-ai.test"]);
      expect(requests).toEqual([{ url: "/v1/chat/completions", authorization: "Bearer sk-local" }]);
    });

    it("follows no redirect: one to a private address fails without connecting there, the key going nowhere else", async () => {
      for (const location of [
        `http://127.0.0.1:${recorder.port}/v1/chat/completions`,
        `http://inside.example:${recorder.port}/v1/chat/completions`,
      ]) {
        answer = (respond) => respond(307, { location }, "");
        const dns = fakeResolver({ "inside.example": "127.0.0.1" });
        const failure = await ask(`http://127.0.0.1:${upstreamPort}/v1`, {
          allowedHosts: [`127.0.0.1:${upstreamPort}`],
          resolve: dns.resolve,
        });
        expect(failure, location).toBeInstanceOf(AiServiceError);
        expect(dns.asked).toEqual([]);
      }
      expect(requests).toHaveLength(2);
      expect(recorder.connections()).toBe(0);
    });
  });
});

describe("SMTP", () => {
  const mail: OutgoingMail = { from: "a@example.com", to: "b@example.com", subject: "Hi", text: "Hi", html: "<p>Hi</p>" };
  const smtp = (host: string, port: number) => ({ host, port, secure: false, user: "apikey", password: "smtp-password-secret" });

  it("refuses a private literal and a name resolving to 127.0.0.1 before connecting", async () => {
    const dns = fakeResolver({ "inside.example": "127.0.0.1" });
    const outbound = { allowedHosts: [], resolve: dns.resolve };
    for (const host of ["10.0.0.5", "127.0.0.1", "inside.example"]) {
      const transport = openMailTransport(smtp(host, recorder.port), { outbound, timeoutMs: 2000 });
      await expect(transport.send(mail), host).rejects.toBeInstanceOf(OutboundAddressError);
      transport.close();
    }
    expect(dns.asked).toEqual(["inside.example"]);
    expect(recorder.connections()).toBe(0);
  });

  it("requires STARTTLS off the allow-list: a server that does not offer it never sees AUTH, and the send fails", async () => {
    const server = await startSmtpCapture();
    try {
      const dns = fakeResolver({ "mail.example": "127.0.0.1" });
      // The test's server is on 127.0.0.1: treated as outside here, so only requireTLS stands between it and the password.
      const outside: OutboundPolicy = { allowedHosts: [], resolve: dns.resolve, isInside: () => false };
      const strict = openMailTransport(smtp("mail.example", server.port), { outbound: outside, timeoutMs: 2000 });
      const failure = await strict.send(mail).catch((error: unknown) => error);
      strict.close();
      expect(failure).toBeInstanceOf(Error);
      expect(String((failure as Error).message)).not.toContain("smtp-password-secret");
      expect(server.authenticated).toEqual([]);
      expect(server.received).toEqual([]);

      // The same server, listed as local: sent as before, over plain SMTP.
      const listed = openMailTransport(smtp("mail.example", server.port), {
        outbound: { ...outside, allowedHosts: ["mail.example"] },
        timeoutMs: 2000,
      });
      await listed.send(mail);
      listed.close();
      expect(server.authenticated).toEqual(["apikey"]);
      expect(server.received).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe("object storage", () => {
  const store = (endpoint: string): ObjectStoreConfig => ({
    location: `${endpoint}/papers`,
    endpoint,
    bucket: "papers",
    region: "us-east-1",
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey: "storage-secret",
  });
  async function* bytes() {
    yield Buffer.from("hello");
  }

  it("refuses an endpoint at a private literal or over http:// off the allow-list, before a client exists", () => {
    const outbound = { allowedHosts: [], resolve: fakeResolver({}).resolve };
    for (const endpoint of [
      "http://169.254.169.254",
      "https://10.0.0.5:9000",
      `https://127.0.0.1:${recorder.port}`,
      "http://s3.example.com",
    ]) {
      expect(() => openObjectStore(store(endpoint), outbound), endpoint).toThrow(ObjectStoreConfigError);
    }
    expect(recorder.connections()).toBe(0);
  });

  it("refuses a name that resolves to 127.0.0.1 as it connects", async () => {
    const dns = fakeResolver({ "inside.example": "127.0.0.1" });
    const objects = openObjectStore(store(`https://inside.example:${recorder.port}`), { allowedHosts: [], resolve: dns.resolve });
    await expect(objects.put("k", bytes(), "application/pdf")).rejects.toThrow();
    expect(dns.asked[0]).toBe("inside.example");
    expect(recorder.connections()).toBe(0);
  });
});
