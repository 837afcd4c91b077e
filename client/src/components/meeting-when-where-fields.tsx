import type { Control } from "react-hook-form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";

/** The fields a meeting is placed in time and space by, as both the schedule and the reschedule forms name them. */
export interface WhenWhereValues {
  date: string;
  time: string;
  location: string;
}

/** Date and time side by side, then the location: shared by 'Schedule meeting' and 'Reschedule'. */
export function MeetingWhenWhereFields<T extends WhenWhereValues>({ control }: { control: Control<T> }) {
  // Each form has more fields than these three; the fields here only read and write the three they share.
  const fields = control as unknown as Control<WhenWhereValues>;
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <LabeledField control={fields} name="date" label="Date">
          {(field) => <Input type="date" {...field} />}
        </LabeledField>
        <LabeledField control={fields} name="time" label="Time">
          {(field) => <Input type="time" {...field} />}
        </LabeledField>
      </div>
      <LabeledField control={fields} name="location" label="Location">
        {(field) => <Input placeholder="Board room, or a video-call link" {...field} />}
      </LabeledField>
    </>
  );
}
