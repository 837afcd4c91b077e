/** The API's error body: every non-2xx answer has this shape. */
export interface ApiErrorBody {
  message: string;
  errors?: { path: string; message: string }[];
}
