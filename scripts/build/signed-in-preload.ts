// A build step: a tiny script the page loads beside the entry, which starts downloading the signed-in app
// when a session token is stored.
//
// The entry finds out that someone is signed in only once it has downloaded and run, and only then asks for
// the shell and the home page: on a phone's slow link that is the entry's whole download and a long task
// later. The check is one line and needs none of the app, so index.html loads it (async, beside the entry):
// it asks who is signed in and adds `modulepreload` links for those chunks at once, and the app takes that
// answer instead of asking again. Once that answer names the active company, it also asks for the first reads of
// the page at the address (client/src/app/preloaded-pages.ts), which the app would otherwise ask for only once the entry
// has arrived and run. A visitor without a token downloads nothing more. Its own file, not an inline script: the content
// security policy allows scripts from the app's origin only.
import type { Plugin, Rolldown } from "vite";
import { pagePathPattern } from "../../client/src/app/page-paths.ts";
import { AUTH_TOKEN_KEY, EARLY_CURRENT_USER, EARLY_READS } from "../../client/src/lib/auth-token-key.ts";
import { can } from "../../shared/permissions.ts";
import { companyRoles } from "../../shared/roles.ts";
import type { PreloadedPageSource } from "../../client/src/app/preloaded-pages.ts";

/**
 * A page the script prepares at its addresses: its files (its chunk, then those it imports that the shared ones do not
 * hold), and its first reads: their addresses (`:companyId` and the path's parameters in them), each with the roles
 * that read it when not every role does.
 */
export interface PreloadedPage {
  paths: readonly string[];
  files: readonly string[];
  reads?: readonly { address: string; roles?: readonly string[] }[];
}

/**
 * Each path of `page` as the script matches it: the pattern's source, the files (by their index in `fileList`, which
 * this adds them to: pages share many), the reads.
 */
function scriptEntries({ paths, files, reads = [] }: PreloadedPage, fileList: string[]) {
  const fileIndexes = files.map((file) => {
    if (!fileList.includes(file)) fileList.push(file);
    return fileList.indexOf(file);
  });
  return paths.map((path) => {
    const names = new Set(["companyId", ...[...path.matchAll(/:(\w+)/g)].map((match) => match[1])]);
    for (const { address } of reads) {
      const unknown = [...address.matchAll(/:(\w+)/g)].map((match) => match[1]).filter((name) => !names.has(name));
      if (unknown.length > 0) throw new Error(`signed-in preload: ${address} names :${unknown.join(", :")}, which ${path} does not`);
    }
    return [pagePathPattern(path).source, fileIndexes, reads.map(({ address, roles }) => (roles ? [address, roles] : [address]))];
  });
}

/**
 * The script's text: with a token stored, the request for the current user (left for the app to take); once its
 * answer names an active company, the requests for the first reads of the page at the address (left for the app to
 * take too); and a `modulepreload` link (marked `data-preload="signed-in"`) for each shared file and for the files of
 * that page.
 */
export function preloadScript(shared: readonly string[], pages: readonly PreloadedPage[]): string {
  const files: string[] = [];
  const table = JSON.stringify(pages.flatMap((page) => scriptEntries(page, files)));
  const user = JSON.stringify(EARLY_CURRENT_USER);
  return (
    `try{const t=localStorage.getItem(${JSON.stringify(AUTH_TOKEN_KEY)});if(t){const F=${JSON.stringify(files.map((file) => `/${file}`))};` +
    // The first page whose pattern matches the address, and the parameters of its path there.
    `let p,v;for(const g of ${table}){const m=new RegExp(g[0]).exec(location.pathname);if(m){p=g;v=m.groups||{};break}}` +
    // Only if the app has not asked already (it leaves false there): an answer nobody reads keeps its request open.
    `if(window[${user}]===undefined){const a={headers:{Authorization:"Bearer "+t},credentials:"include"},r=fetch("/api/auth/user",a);` +
    `window[${user}]={token:t,response:r};` +
    // The reads' addresses name the active company, known from the user's answer (read from a copy: the app reads the
    // answer itself), and the role decides some. A failed read is the app's to ask again; the catch only keeps it from
    // being reported as unhandled.
    `if(p&&p[2].length)window[${JSON.stringify(EARLY_READS)}]={token:t,responses:r.then(x=>x.ok?x.clone().json():null).then(u=>{const o={};` +
    `if(u&&u.companyId!=null)for(const[s,w]of p[2])if(!w||w.includes(u.role)){const h=s.replace(/:(\\w+)/g,(_,k)=>encodeURIComponent(k==="companyId"?u.companyId:v[k])),f=fetch(h,a);f.catch(()=>{});o[h]=f}return o}).catch(()=>({}))}` +
    `}` +
    // The links after the requests: over HTTP/1.1 a browser opens six connections to a server, and the current user's
    // request, which every first read waits for, must not queue behind the page's files.
    `for(const h of ${JSON.stringify(shared.map((file) => `/${file}`))}.concat(p?p[1].map(i=>F[i]):[])){const l=document.createElement("link");l.rel="modulepreload";l.href=h;l.dataset.preload="signed-in";document.head.appendChild(l)}` +
    `}}catch{}\n`
  );
}

/** The roles that hold `read`'s permission, when it names one. */
const rolesOf = ({ address, permission }: PreloadedPageSource["reads"][number]) =>
  permission ? { address, roles: companyRoles.filter((role) => can(role, permission)) } : { address };

/**
 * `chunks`: the names of the grouped chunks every signed-in page needs; `pages`: the pages whose files to preload at
 * their addresses, with their first reads (`module` an absolute path). The build fails if one of them is missing,
 * rather than ship a script that preloads nothing.
 */
export function signedInPreload({ chunks, pages }: { chunks: readonly string[]; pages: readonly PreloadedPageSource[] }): Plugin {
  return {
    name: "quorum:signed-in-preload",
    apply: "build",
    // After Vite has written index.html into the bundle.
    enforce: "post",
    generateBundle(_options, bundle) {
      const outputChunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === "chunk");
      const shared = chunks.map((name) => outputChunks.find((chunk) => chunk.name === name && chunk.facadeModuleId === null));
      const pageChunks = pages.map(({ module }) => outputChunks.find((chunk) => chunk.facadeModuleId === module));
      const missing = [
        ...chunks.filter((_, index) => !shared[index]),
        ...pages.filter((_, index) => !pageChunks[index]).map(({ module }) => module),
      ];
      if (missing.length > 0) this.error(`signed-in preload: no chunk for ${missing.join(", ")}`);
      const sharedFiles = shared.map((chunk) => chunk!.fileName);
      // A page's chunk, then what it imports, transitively, but for the entry and the shared files (loaded anyway): a
      // modulepreload link fetches its one file, so each imported file needs its own to start before the page's arrives.
      const filesOf = (page: Rolldown.OutputChunk) => {
        const files = [page.fileName];
        for (const file of files) {
          const chunkOfFile = bundle[file];
          for (const imported of chunkOfFile?.type === "chunk" ? chunkOfFile.imports : []) {
            const chunk = bundle[imported];
            if (chunk?.type === "chunk" && !chunk.isEntry && !sharedFiles.includes(imported) && !files.includes(imported))
              files.push(imported);
          }
        }
        return files;
      };
      const source = preloadScript(
        sharedFiles,
        pages.map(({ paths, reads }, index) => ({ paths, files: filesOf(pageChunks[index]!), reads: reads.map(rolesOf) })),
      );
      const reference = this.emitFile({ type: "asset", name: "preload-signed-in.js", source });

      const page = bundle["index.html"];
      if (page?.type !== "asset" || typeof page.source !== "string")
        return this.error("signed-in preload: index.html is not in the bundle");
      if (!page.source.includes("</head>")) this.error("signed-in preload: index.html has no </head>");
      page.source = page.source.replace("</head>", `  <script async src="/${this.getFileName(reference)}"></script>\n  </head>`);
    },
  };
}
