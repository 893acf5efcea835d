import { z } from 'zod';

/** A query string integer is digits: "", " ", "1e1" and "0x10" are not numbers here. */
const digitsOnly = (value: unknown) =>
  typeof value === 'string' && !/^\s*-?\d+\s*$/.test(value) ? Number.NaN : value;

/**
 * An integer query parameter between min and max, documented as an integer. (z.coerce.number()
 * alone reads an empty parameter as 0, and accepts exponent and hex spellings.)
 */
export const queryInt = (min: number, max: number) =>
  z.preprocess(digitsOnly, z.coerce.number().int().min(min).max(max));
