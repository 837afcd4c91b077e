/** The contract's error body: every non-2xx answer of the API has this shape. */
export interface ApiErrorBody {
  message: string;
  errors?: { path: string; message: string }[];
}
