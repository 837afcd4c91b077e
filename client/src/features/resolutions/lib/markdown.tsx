import { Fragment, type ReactNode } from "react";

// A small, safe subset of Markdown for a written resolution's text: headings, paragraphs, bulleted and numbered
// lists, quotes, bold, italics and code. It builds React elements, never HTML, so the text cannot inject markup; a
// link is shown as its words followed by its address as plain text, since a resolution's text is read, not followed.

type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; lines: string[] }
  | { kind: "list"; ordered: boolean; start: number; items: string[] }
  | { kind: "quote"; lines: string[] };

const headingPattern = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const bulletPattern = /^\s*[-*+]\s+(.*)$/;
const numberPattern = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const quotePattern = /^\s*>\s?(.*)$/;

/** The text's blocks, line by line: a blank line ends a paragraph, a list or a quote. */
export function markdownBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let current: Block | null = null;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  for (const line of source.replace(/\r\n?/g, "\n").split("\n")) {
    if (line.trim() === "") {
      close();
      continue;
    }
    const heading = headingPattern.exec(line);
    if (heading) {
      close();
      blocks.push({ kind: "heading", level: Math.min(3, heading[1]!.length) as 1 | 2 | 3, text: heading[2]! });
      continue;
    }
    const bullet = bulletPattern.exec(line);
    const numbered = bullet ? null : numberPattern.exec(line);
    if (bullet || numbered) {
      const ordered = numbered !== null;
      const item = bullet ? bullet[1]! : numbered![2]!;
      const open = current as Block | null;
      if (open?.kind === "list" && open.ordered === ordered) open.items.push(item);
      else {
        close();
        current = { kind: "list", ordered, start: numbered ? Number(numbered[1]) : 1, items: [item] };
      }
      continue;
    }
    const quote = quotePattern.exec(line);
    if (quote) {
      const open = current as Block | null;
      if (open?.kind === "quote") open.lines.push(quote[1]!);
      else {
        close();
        current = { kind: "quote", lines: [quote[1]!] };
      }
      continue;
    }
    const open = current as Block | null;
    if (open?.kind === "list") {
      // A line under an item continues it.
      open.items[open.items.length - 1] += ` ${line.trim()}`;
    } else if (open?.kind === "paragraph" || open?.kind === "quote") open.lines.push(line.trim());
    else {
      close();
      current = { kind: "paragraph", lines: [line.trim()] };
    }
  }
  close();
  return blocks;
}

const inlinePattern = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/g;

/** Bold, italics, code and links within a line, as elements; everything else as text. */
export function inlineMarkdown(text: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(inlinePattern)) {
    const [whole, code, strong, emphasis, link] = match;
    const index = match.index;
    if (index > last) nodes.push(text.slice(last, index));
    const key = nodes.length;
    if (code)
      nodes.push(
        <code key={key} className="rounded bg-muted px-1 font-mono text-[0.9em]">
          {code.slice(1, -1)}
        </code>,
      );
    else if (strong) nodes.push(<strong key={key}>{inlineMarkdown(strong.slice(2, -2))}</strong>);
    else if (emphasis) nodes.push(<em key={key}>{inlineMarkdown(emphasis.slice(1, -1))}</em>);
    else if (link) {
      const [, words, address] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(link)!;
      nodes.push(
        <Fragment key={key}>
          {inlineMarkdown(words!)} <span className="text-muted-foreground">({address})</span>
        </Fragment>,
      );
    } else nodes.push(whole);
    last = index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return nodes;
}

const headingClasses = { 1: "text-lg font-semibold", 2: "text-base font-semibold", 3: "font-semibold" } as const;

/** A written resolution's text, rendered from its Markdown. Headings start at `headingLevel` in the page's outline. */
export function Markdown({ source, headingLevel = 4 }: { source: string; headingLevel?: 3 | 4 }) {
  return (
    <div className="grid gap-3 break-words">
      {markdownBlocks(source).map((block, index) => {
        if (block.kind === "heading") {
          const Tag = `h${Math.min(6, headingLevel + block.level - 1)}` as "h4";
          return (
            <Tag key={index} className={headingClasses[block.level]}>
              {inlineMarkdown(block.text)}
            </Tag>
          );
        }
        if (block.kind === "list") {
          const items = block.items.map((item, itemIndex) => <li key={itemIndex}>{inlineMarkdown(item)}</li>);
          return block.ordered ? (
            <ol key={index} start={block.start} className="grid list-decimal gap-1 pl-6">
              {items}
            </ol>
          ) : (
            <ul key={index} className="grid list-disc gap-1 pl-6">
              {items}
            </ul>
          );
        }
        if (block.kind === "quote") {
          return (
            <blockquote key={index} className="border-l-2 pl-3 text-muted-foreground">
              {inlineMarkdown(block.lines.join(" "))}
            </blockquote>
          );
        }
        return <p key={index}>{inlineMarkdown(block.lines.join(" "))}</p>;
      })}
    </div>
  );
}
