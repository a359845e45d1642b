// The follow log's wire format, both ends of it: server-sent events
// (text/event-stream, as `EventSource` reads them). The server writes them
// (feed.ts); a follower reads them (follower.ts). An event's `id` is the
// taskID it brings the follower to, so `Last-Event-ID` (or `after`) is the
// place to resume from; events without one move nothing.
//
//   id: 12 / event: op / data: {"queued":true,"op":{...}}   an operation to apply
//   id: 13 / event: skip / data: {}                          a task the key does not see
//   event: live / data: {}                                   caught up: what follows is new
//   event: reload / data: {"message":"..."}                  load a new snapshot, then follow again
//   event: models / data: {"indexName":"shop","settings":{...},"models":{...}}
//                                                            an index's recommend models now (null: none)
//   : ping                                                   every few seconds while nothing happens

import type { IndexModelsSnapshot } from '../recommend/index-models.js';
import type { RecommendSettings } from '../recommend/options.js';

/** One event of the follow log. */
export type FollowEvent =
  | { type: 'op'; taskID: number; queued: boolean; op: unknown }
  | { type: 'skip'; taskID: number }
  | { type: 'live' }
  | { type: 'reload'; message: string }
  | { type: 'models'; indexName: string; models: IndexModelsSnapshot | null; settings: RecommendSettings };

/** An operation's event; `opText`: the operation as JSON (written once, sent to every follower that sees it). */
export function opEvent(taskID: number, queued: boolean, opText: string): string {
  return `id: ${taskID}\nevent: op\ndata: {"queued":${queued},"op":${opText}}\n\n`;
}

export const skipEvent = (taskID: number): string => `id: ${taskID}\nevent: skip\ndata: {}\n\n`;

export const LIVE_EVENT = 'event: live\ndata: {}\n\n';

export const reloadEvent = (message: string): string => `event: reload\ndata: ${JSON.stringify({ message })}\n\n`;

/** An index's recommend models and the settings they were learnt with (`modelsText`: the models as JSON, or null). */
export const modelsEvent = (indexName: string, modelsText: string, settings: RecommendSettings): string =>
  `event: models\ndata: {"indexName":${JSON.stringify(indexName)},"settings":${JSON.stringify(settings)},"models":${modelsText}}\n\n`;

/** A comment: keeps the connection (and proxies) from deeming it idle; `retry` tells EventSource how soon to reconnect. */
export const PING = ': ping\n\n';
export const RETRY_MS = 1000;
export const STREAM_START = `retry: ${RETRY_MS}\n\n`;

/**
 * Reads events from the stream's text as it arrives (the server-sent events
 * format: lines, a blank line ends an event, `:` starts a comment).
 */
export class EventReader {
  private buffered = '';
  private fields: { event?: string; data: string[]; id?: string } = { data: [] };

  /** The events the text completes. */
  push(text: string): FollowEvent[] {
    this.buffered += text;
    const events: FollowEvent[] = [];
    const lines = this.buffered.split(/\r\n|\r|\n/);
    this.buffered = lines.pop() ?? '';
    for (const line of lines) {
      if (line === '') {
        const event = this.dispatched();
        if (event) events.push(event);
      } else if (!line.startsWith(':')) {
        this.field(line);
      }
    }
    return events;
  }

  private field(line: string): void {
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name === 'data') this.fields.data.push(value);
    else if (name === 'event') this.fields.event = value;
    else if (name === 'id') this.fields.id = value;
  }

  private dispatched(): FollowEvent | undefined {
    const { event, data, id } = this.fields;
    this.fields = { data: [] };
    if (data.length === 0) return undefined;
    const body = JSON.parse(data.join('\n')) as { queued?: boolean; op?: unknown; message?: string; indexName?: string; models?: IndexModelsSnapshot | null; settings?: RecommendSettings };
    const taskID = Number(id);
    switch (event) {
      case 'op': return { type: 'op', taskID, queued: body.queued === true, op: body.op };
      case 'skip': return { type: 'skip', taskID };
      case 'live': return { type: 'live' };
      case 'reload': return { type: 'reload', message: String(body.message) };
      case 'models': return { type: 'models', indexName: String(body.indexName), models: body.models ?? null, settings: body.settings! };
      default: return undefined;
    }
  }
}
