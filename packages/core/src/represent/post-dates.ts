// The four post timestamps every post carries (behaviour reference: "Conventions shared by all resources").
import type { PostRecord } from '../model/records';

/** WordPress's value of `date_utc` for a draft whose date was never set. */
export const ZERO_DATE = '0000-00-00 00:00:00';

export function postDates(post: PostRecord): { date: string; date_utc: string; modified: string; modified_utc: string } {
  return { date: post.date, date_utc: post.dateUtc ?? ZERO_DATE, modified: post.modified, modified_utc: post.modifiedUtc };
}
