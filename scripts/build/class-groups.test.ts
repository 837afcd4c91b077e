import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createTailwindMerge, getDefaultConfig } from "tailwind-merge";
import { classMerger } from "../../client/src/lib/class-groups";

const clientSource = join(import.meta.dirname, "../../client/src");

/** Every word of every string in the app's code (tests aside) that could be a class name. */
function wordsInStrings(): Set<string> {
  const words = new Set<string>();
  const files = readdirSync(clientSource, { recursive: true, encoding: "utf8" }).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
  );
  for (const file of files) {
    const text = readFileSync(join(clientSource, file), "utf8");
    for (const [, double, single, template] of text.matchAll(/"([^"\n]*)"|'([^'\n]*)'|`([^`]*)`/g)) {
      for (const word of (double ?? single ?? template ?? "").split(/\s+/)) if (/^[\w!*@-][^\s"'`{}$]*$/.test(word)) words.add(word);
    }
  }
  return words;
}

describe("the client's class merger, built for the class groups the app uses", () => {
  it("knows the group of every class in the app's code that Tailwind's full set knows", () => {
    const fullMerger = createTailwindMerge(getDefaultConfig);
    const words = [...wordsInStrings()];
    // A merger keeps one class of a group it knows, and both of a class it does not.
    const classes = words.filter((word) => fullMerger(`${word} ${word}`) === word);
    expect(classes.length).toBeGreaterThan(300);
    expect(classes.filter((name) => classMerger(name, name) !== name)).toEqual([]);
  });

  it("lets a later class win over an earlier one of its group", () => {
    expect(classMerger("px-3 py-2 text-sm", "px-0 text-base")).toBe("py-2 px-0 text-base");
    expect(classMerger("flex w-full", "md:w-auto", "w-9")).toBe("flex md:w-auto w-9");
  });
});
