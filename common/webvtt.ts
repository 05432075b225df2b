// WebVTT captions (https://www.w3.org/TR/webvtt1/), read as a browser reads them: the cues and their
// times, for the transcript under a video and its search. A file that a browser would not show, or
// would show wrongly, is refused with the line that is wrong.

export interface Cue {
  /** Seconds from the start of the video. */
  start: number;
  end: number;
  /** The words, without the cue's markup (<v Speaker>, <i>, ...), lines joined by a space. */
  text: string;
}

export type ParsedCaptions = { ok: true; cues: Cue[] } | { ok: false; error: string };

// (hh:)mm:ss.ttt: hours of any length, minutes and seconds below 60.
const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '', rlm: '' };

function secondsOf(timestamp: string): number | null {
  const match = TIMESTAMP.exec(timestamp);
  if (!match) return null;
  const [, hours = '0', minutes, seconds, thousandths] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds) + Number(thousandths) / 1000;
}

/** A cue's words as they read: its markup taken out, its entities decoded, its lines joined. */
function wordsOf(lines: string[]): string {
  return lines
    .join(' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|nbsp|lrm|rlm);/g, (_entity, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The cues of a WebVTT file, or why it is not one (`maxCues` at most). */
export function parseWebVtt(text: string, maxCues: number): ParsedCaptions {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) return { ok: false, error: 'Line 1: a WebVTT file starts with WEBVTT' };
  const cues: Cue[] = [];
  let at = 1;
  // The header goes on until the first blank line.
  while (at < lines.length && lines[at] !== '') at++;
  while (at < lines.length) {
    while (at < lines.length && lines[at] === '') at++;
    if (at >= lines.length) break;
    const blockStart = at;
    const block: string[] = [];
    while (at < lines.length && lines[at] !== '') block.push(lines[at++]!);
    // Notes, styles and regions are not cues.
    if (/^(NOTE|STYLE|REGION)(?:[ \t]|$)/.test(block[0]!)) continue;
    const timingAt = block[0]!.includes('-->') ? 0 : 1;
    const timing = block[timingAt];
    const line = blockStart + timingAt + 1;
    if (timing === undefined || !timing.includes('-->'))
      return { ok: false, error: `Line ${line}: a cue needs its times, such as 00:01.000 --> 00:04.000` };
    const [startText = '', rest = ''] = timing.split('-->').map((part) => part.trim());
    const start = secondsOf(startText);
    const end = secondsOf(rest.split(/[ \t]+/)[0] ?? '');
    if (start === null || end === null) return { ok: false, error: `Line ${line}: times are written 00:01.000 or 01:02:03.000` };
    if (end <= start) return { ok: false, error: `Line ${line}: a cue must end after it starts` };
    if (cues.length >= maxCues) return { ok: false, error: `A captions file may hold at most ${maxCues} cues` };
    cues.push({ start, end, text: wordsOf(block.slice(timingAt + 1)) });
  }
  if (cues.length === 0) return { ok: false, error: 'The file holds no cue: it would show nothing' };
  return { ok: true, cues };
}
