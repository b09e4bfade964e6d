// Structured data of a page, checked the way a search engine's testing tool does: the page's
// JSON-LD, microdata, RDFa and meta tags extracted by @marbec/web-auto-extractor, then
// validated by @adobe/structured-data-validator. Adobe's validator has no rules for events, so
// Google's event rich-result rules (developers.google.com/search/docs/appearance/structured-data/event:
// required name, startDate, location with an address or a URL; recommended description,
// endDate, eventAttendanceMode, eventStatus, image, offers, organizer, performer) are written
// here as handlers of that validator, on its own base class. Its schema.org vocabulary check
// needs schema.org's file, which only schema.org serves: it is not run (offline).
import Validator from '@adobe/structured-data-validator';
import BaseValidator from '@adobe/structured-data-validator/src/types/base.js';
import WebAutoExtractor from '@marbec/web-auto-extractor';

/** An issue the validator reports. */
export interface StructuredDataIssue {
  readonly issueMessage: string;
  readonly severity: 'ERROR' | 'WARNING';
  readonly fieldNames: readonly string[];
  readonly path: readonly { readonly type?: string; readonly property?: string }[];
}

export interface Extracted {
  readonly jsonld: Readonly<Record<string, readonly Record<string, unknown>[]>>;
  readonly metatags: Readonly<Record<string, readonly string[]>>;
}

/** The page's structured data and meta tags. */
export function extract(html: string): Extracted {
  return new WebAutoExtractor({ addLocation: true, embedSource: ['rdfa', 'microdata'] }).parse(html) as Extracted;
}

/** What the validator, with Google's event rules, finds wrong or missing. */
export async function validate(extracted: Extracted): Promise<StructuredDataIssue[]> {
  const validator = new Validator();
  const handlers = validator.registeredHandlers;
  handlers.Event = [async () => ({ default: GoogleEvent })];
  handlers.Place = [async () => ({ default: EventPlace })];
  handlers.VirtualLocation = [async () => ({ default: EventVirtualLocation })];
  handlers.PostalAddress = [async () => ({ default: EventAddress })];
  handlers.Offer = [...(handlers.Offer ?? []), async () => ({ default: EventOffer })];
  handlers.Person = [...(handlers.Person ?? []), async () => ({ default: EventOrganizer })];
  handlers.Organization = [...(handlers.Organization ?? []), async () => ({ default: EventOrganizer })];
  return (await validator.validate(extracted)) as StructuredDataIssue[];
}

const STATUSES = ['EventScheduled', 'EventCancelled', 'EventMovedOnline', 'EventPostponed', 'EventRescheduled'].map((s) => `https://schema.org/${s}`);
const MODES = ['OfflineEventAttendanceMode', 'OnlineEventAttendanceMode', 'MixedEventAttendanceMode'].map((s) => `https://schema.org/${s}`);
const AVAILABILITY = ['InStock', 'SoldOut', 'PreOrder', 'OnlineOnly', 'LimitedAvailability', 'InStoreOnly', 'OutOfStock', 'PreSale', 'Discontinued', 'BackOrder']
  .flatMap((s) => [`https://schema.org/${s}`, `http://schema.org/${s}`]);
/** ISO 8601 with a time and its UTC offset (Google: "use the offset"), or a date alone. */
const DATE_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?([+-]\d{2}:\d{2}|Z))?$/;

type Condition = (data: Record<string, unknown>) => unknown;

class GoogleEvent extends BaseValidator {
  /** The validator's own 'regex' check cannot be used (it tests the list of its options); this one says the same. */
  dateWithOffset(name: string, severity: 'ERROR' | 'WARNING'): Condition {
    return (data) => {
      const value = data[name];
      if (typeof value !== 'string' || DATE_WITH_OFFSET.test(value)) return null;
      return { issueMessage: `"${name}" is not ISO 8601 with a UTC offset: ${value}`, severity, path: this.path, fieldNames: [name] };
    };
  }

  override getConditions(): Condition[] {
    return [
      this.required('name', 'string'),
      this.required('startDate', 'string'),
      this.dateWithOffset('startDate', 'ERROR'),
      this.required('location', 'arrayOrObject'),
      this.recommended('description', 'string'),
      this.recommended('endDate', 'string'),
      this.dateWithOffset('endDate', 'WARNING'),
      this.recommended('eventAttendanceMode', 'enum', ...MODES),
      this.recommended('eventStatus', 'enum', ...STATUSES),
      this.recommended('image', 'url'),
      this.recommended('offers', 'arrayOrObject'),
      this.recommended('organizer', 'arrayOrObject'),
      this.recommended('performer', 'arrayOrObject'),
    ].map((c) => c.bind(this));
  }
}

/** An event's Place: where it is, with an address. */
class EventPlace extends BaseValidator {
  override getConditions(): Condition[] {
    if (!this.inProperty('location')) return [];
    return [this.required('address', 'object'), this.recommended('name', 'string')].map((c) => c.bind(this));
  }
}

class EventVirtualLocation extends BaseValidator {
  override getConditions(): Condition[] {
    return [this.required('url', 'url')].map((c) => c.bind(this));
  }
}

class EventAddress extends BaseValidator {
  override getConditions(): Condition[] {
    if (!this.inProperty('address')) return [];
    return ['streetAddress', 'addressLocality', 'postalCode', 'addressCountry'].map((name) => this.recommended(name, 'string').bind(this));
  }
}

class EventOffer extends BaseValidator {
  override getConditions(): Condition[] {
    if (!this.inProperty('offers') || !this.inType('Event')) return [];
    return [
      this.recommended('availability', 'enum', ...AVAILABILITY),
      this.recommended('price', 'number'),
      this.recommended('priceCurrency', 'currency'),
      this.recommended('url', 'url'),
      this.recommended('validFrom', 'date'),
    ].map((c) => c.bind(this));
  }
}

class EventOrganizer extends BaseValidator {
  override getConditions(): Condition[] {
    if (!this.inProperty('organizer')) return [];
    return [this.required('name', 'string'), this.recommended('url', 'url')].map((c) => c.bind(this));
  }
}
