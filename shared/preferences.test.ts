import { preferenceDefaults, withDefaults } from "./preferences";
import { preferencesUpdateSchema } from "./preferences-update";

describe("preferences", () => {
  it("reads missing and unknown switches as their defaults", () => {
    expect(withDefaults(null)).toEqual(preferenceDefaults);
    expect(withDefaults({ darkMode: true, retired: true, meetingReminders: "yes" })).toEqual({ ...preferenceDefaults, darkMode: true });
  });

  it("takes any known switch as a boolean and refuses anything else", () => {
    expect(preferencesUpdateSchema.safeParse({ darkMode: true }).success).toBe(true);
    expect(preferencesUpdateSchema.safeParse({ darkMode: "true" }).success).toBe(false);
    expect(preferencesUpdateSchema.safeParse({ retired: true }).success).toBe(false);
  });
});
