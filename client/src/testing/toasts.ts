import { screen, within } from "@testing-library/react";

/** The visible toast whose title is `title` (Radix also copies the text into a live region; this skips that copy). */
export async function findToast(title: string): Promise<HTMLElement> {
  const region = await screen.findByRole("region", { name: /Notifications/ });
  const titleElement = await within(region).findByText(title);
  const toast = titleElement.closest("li");
  if (!toast) throw new Error(`The toast titled "${title}" is not inside a toast item`);
  return toast;
}
