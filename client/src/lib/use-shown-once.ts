import { useState } from "react";

/**
 * Whether `shown` has ever been true. A dialog whose code loads when it is first opened stays mounted from then on, so
 * it closes with its animation (and gives focus back) as a dialog does, rather than vanishing.
 */
export function useShownOnce(shown: boolean): boolean {
  const [once, setOnce] = useState(shown);
  // Set during render, as React allows for state derived from props: the dialog mounts in the same commit.
  if (shown && !once) setOnce(true);
  return once || shown;
}
