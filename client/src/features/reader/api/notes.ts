import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as api from "@shared/api/reading";
import type { CreateNoteInput, PaperNote } from "@shared/paper-reading";
import { callApi } from "@/lib/api-client";
import { useActiveCompany } from "@/lib/auth/active-company";
import { readerKeys } from "@/features/reader/api/reader-keys";

/** The caller's own notes on a paper, placed on the latest version's pages (or unplaced). */
export function useNotes(documentId: number, enabled = true) {
  const companyId = useActiveCompany();
  return useQuery({
    enabled,
    queryKey: readerKeys.notes(companyId, documentId),
    queryFn: () => callApi(api.listNotes, { params: { id: documentId } }),
  });
}

/** Writes, changes and deletes the caller's notes on one paper, keeping the cached list in step with each answer. */
export function useNoteWrites(documentId: number) {
  const queryClient = useQueryClient();
  const key = readerKeys.notes(useActiveCompany(), documentId);
  const update = (change: (notes: PaperNote[]) => PaperNote[]) =>
    queryClient.setQueryData<PaperNote[]>(key, (notes) => (notes ? change(notes) : notes));

  const create = useMutation({
    mutationFn: (body: CreateNoteInput) => callApi(api.createNote, { params: { id: documentId }, body }),
    onSuccess: (note) => update((notes) => [...notes, note]),
  });
  const edit = useMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) => callApi(api.updateNote, { params: { id }, body: { text } }),
    onSuccess: (note) => update((notes) => notes.map((each) => (each.id === note.id ? note : each))),
  });
  const remove = useMutation({
    mutationFn: (id: number) => callApi(api.deleteNote, { params: { id } }),
    onSuccess: (_, id) => update((notes) => notes.filter((each) => each.id !== id)),
  });
  return { create, edit, remove };
}
