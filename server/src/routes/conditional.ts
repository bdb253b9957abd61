/** If-None-Match matches when it lists this ETag (weak or strong) or is `*`. */
export const ifNoneMatch = (header: string, etag: string) =>
  header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
