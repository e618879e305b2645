/** A UUID's text (any version, either case), for building larger patterns (storage keys, say). */
export const UUID_SOURCE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/** A whole string that is a UUID. */
export const UUID_PATTERN = new RegExp(`^${UUID_SOURCE}$`);

/** Whether `value` is a UUID: ids from a URL are checked before they reach a uuid column. */
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);
