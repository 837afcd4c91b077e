import { clsx, type ClassValue } from "clsx";
import { classMerger } from "@/lib/class-groups";

/** Joins class names and lets later Tailwind utilities win over earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return classMerger(clsx(inputs));
}
