/** One entry of a 422 body: `field` uses dots for nesting and brackets for array positions. */
export interface FieldError {
  field: string;
  message: string;
}
