import { companyRoles } from "@shared/roles";
import * as meetingsApi from "@shared/api/meetings";
import { can } from "@shared/permissions";
import { firstReadsAt, firstReadsOfPages } from "@/app/first-reads";
import { pathParams } from "@/app/page-paths";
import { signedInPaths } from "@/app/signed-out-routes";
import { createQueryClient } from "@/lib/query-client";
import { handle } from "@/testing/handle";
import { server } from "@/testing/server";
import { preloadedPages } from "@/app/preloaded-pages";

/** An address of `path`, each of its parameters the id 12. */
const addressOf = (path: string) => path.replace(/:\w+/g, "12");

/** The requests (path and query) the app's first reads at `address` make for a user of company 3 with `role`. */
async function requestsOfFirstReads(address: string, role: (typeof companyRoles)[number]): Promise<string[]> {
  const requested: string[] = [];
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    requested.push(url.pathname + url.search);
  });
  const queryClient = createQueryClient();
  await Promise.all(firstReadsAt(address)!({ companyId: 3, role }).map((read) => read(queryClient)));
  server.events.removeAllListeners();
  return requested;
}

afterEach(() => {
  server.events.removeAllListeners();
});

describe("the addresses of a page", () => {
  it("are its path with an id for each parameter", () => {
    expect(pathParams("/meetings/:id", "/meetings/12")).toEqual({ id: 12 });
    expect(pathParams("/documents/:id/read", "/documents/7/read")).toEqual({ id: 7 });
    expect(pathParams("/", "/")).toEqual({});
    expect(pathParams("/meetings", "/meetings")).toEqual({});
  });

  it("are no other address: not another page's, nor one whose parameter is no id", () => {
    for (const address of ["/meetings", "/meetings/", "/meetings/12/pack", "/meetings/new", "/meetings/1234567890", "/xmeetings/12"]) {
      expect(pathParams("/meetings/:id", address), address).toBeNull();
    }
    expect(pathParams("/", "/dashboard")).toBeNull();
  });
});

describe("the first reads of the signed-in pages", () => {
  it("are for pages of the route table", () => {
    const paths = firstReadsOfPages.flatMap((page) => page.paths);
    expect(paths.filter((path) => !(signedInPaths as readonly string[]).includes(path))).toEqual([]);
    expect(firstReadsAt("/meetings/12")).toBeDefined();
    expect(firstReadsAt("/search")).toBeUndefined();
  });

  // The preload script asks for its pages' reads before the app has arrived, and the app takes those answers by
  // address: a read the app makes that the script does not is asked for late, and one the script makes that the app
  // does not is wasted.
  it("are the reads the build's preload script asks for at the same pages, role by role", async () => {
    // The meeting of the example address does not exist; its agenda, then, neither.
    server.use(handle(meetingsApi.getAgenda, () => ({ items: [] })));
    expect(preloadedPages.flatMap((page) => page.paths)).toEqual(firstReadsOfPages.flatMap((page) => page.paths));
    for (const page of preloadedPages) {
      for (const path of page.paths) {
        for (const role of companyRoles) {
          const expected = page.reads
            .filter((read) => !read.permission || can(role, read.permission))
            .map((read) => addressOf(read.address.replace(":companyId", "3")));
          expect((await requestsOfFirstReads(addressOf(path), role)).sort(), `${path} as ${role}`).toEqual(expected.sort());
        }
      }
    }
  });
});
