import { act, renderHook } from "@testing-library/react";
import { useForm } from "react-hook-form";
import { ApiError } from "@/lib/api-client";
import { applyServerErrors } from "@/lib/form-errors";

const failure = (status: number, body: unknown) => new ApiError(status, "", JSON.stringify(body));

function renderForm() {
  return renderHook(() => useForm({ defaultValues: { email: "", city: "", name: "" } })).result;
}

describe("applyServerErrors", () => {
  it("puts each field error on its field, renamed where asked, and leaves out paths that are no field", () => {
    const form = renderForm();
    const error = failure(400, {
      message: "Invalid",
      errors: [
        { path: "name", message: "Name is required" },
        { path: "location", message: "Location is required" },
        { path: "companyId", message: "Not yours" },
      ],
    });
    act(() => applyServerErrors(form.current, error, { rename: { location: "city" } }));
    expect(form.current.getFieldState("name").error?.message).toBe("Name is required");
    expect(form.current.getFieldState("city").error?.message).toBe("Location is required");
    expect(form.current.getFieldState("email").error).toBeUndefined();
    // A path that names no field of the form gets no error of its own.
    expect(form.current.getFieldState("companyId" as "name").error).toBeUndefined();
  });

  it("puts a 409's message on the conflict field, and nothing for other failures", () => {
    const form = renderForm();
    act(() => applyServerErrors(form.current, failure(409, { message: "Already a member" }), { conflictField: "email" }));
    expect(form.current.getFieldState("email").error?.message).toBe("Already a member");

    const other = renderForm();
    act(() => {
      applyServerErrors(other.current, failure(500, { message: "Boom" }), { conflictField: "email" });
      applyServerErrors(other.current, new Error("offline"), { conflictField: "email" });
    });
    expect(other.current.getFieldState("email").error).toBeUndefined();
  });
});
