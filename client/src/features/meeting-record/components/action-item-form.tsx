import { zodResolver } from "@hookform/resolvers/zod";
import { Plus } from "lucide-react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { createActionItemSchema } from "@shared/meeting-record";
import { Button } from "@/components/ui/button";
import { Form } from "@/components/ui/form";
import { LabeledField } from "@/components/ui/form-fields";
import { Input } from "@/components/ui/input";
import { SelectField } from "@/components/ui/select-fields";
import { toast } from "@/components/ui/use-toast";
import { serverMessageOf } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";
import { useCreateActionItem } from "@/features/meeting-record/api/action-items";

// The owner is a select's value (a string) until it is sent; the other fields are checked as the server checks them.
const formSchema = z.object({
  title: createActionItemSchema.shape.title,
  ownerId: z.string().min(1, "Choose an owner"),
  dueDate: createActionItemSchema.shape.dueDate,
});
type FormValues = z.infer<typeof formSchema>;
const defaults: FormValues = { title: "", ownerId: "", dueDate: "" };

/** Adding an action item to a meeting: a title, an owner among the members and a due date on or after `earliestDue`. */
export function ActionItemForm({
  meetingId,
  earliestDue,
  members,
}: {
  meetingId: number;
  earliestDue: string;
  members: readonly { id: number; name: string }[];
}) {
  const create = useCreateActionItem(meetingId);
  const form = useForm<FormValues>({ resolver: zodResolver(formSchema), defaultValues: defaults });
  const options = members.map((member) => ({ value: String(member.id), label: member.name }));

  async function submit(values: FormValues) {
    try {
      await create.mutateAsync({ ...values, ownerId: Number(values.ownerId) });
      form.reset(defaults);
      toast({ title: "Action item added", description: `“${values.title}” is on the meeting's list.` });
    } catch (error) {
      applyServerErrors(form, error);
      toast({ title: "The action item was not added", description: serverMessageOf(error) ?? "Please try again.", variant: "destructive" });
    }
  }

  return (
    <Form {...form}>
      <form onSubmit={form.handleSubmit(submit)} noValidate className="grid gap-4 rounded-lg bg-muted/50 p-4" aria-label="Add action item">
        <LabeledField control={form.control} name="title" label="Action">
          {(field) => <Input autoComplete="off" {...field} />}
        </LabeledField>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField control={form.control} name="ownerId" label="Owner" options={options} placeholder="Choose a member" />
          <LabeledField control={form.control} name="dueDate" label="Due date">
            {(field) => <Input type="date" min={earliestDue} {...field} />}
          </LabeledField>
        </div>
        <div>
          <Button type="submit" disabled={create.isPending}>
            <Plus aria-hidden />
            {create.isPending ? "Adding…" : "Add action item"}
          </Button>
        </div>
      </form>
    </Form>
  );
}
