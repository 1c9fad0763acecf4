// Error codes of the data group's agent routes (the rest of the group's codes are in
// ./errors.ts). Every invalid parameter still answers with the group's one 422 body.
import { defineErrors } from '../core/errors.js';

export const ReviewErrors = defineErrors('data', {
  invalid_revision: { status: 422, meaning: 'previous_revision is neither empty nor a revision (64 lowercase hexadecimal characters).' },
});
