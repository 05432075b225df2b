import { describe, expect, it } from 'vitest';
import { parseWebVtt } from './webvtt.ts';

describe('WebVTT captions', () => {
  it('reads the cues, their times and their words, past the header, notes and styles', () => {
    const parsed = parseWebVtt(
      [
        '\uFEFFWEBVTT - Listing presentations',
        'Kind: captions',
        '',
        'NOTE written by the coach',
        '',
        'STYLE',
        '::cue { color: yellow }',
        '',
        'intro',
        '00:01.000 --> 00:04.500 align:start',
        '<v Dana>Welcome back</v> to the course,',
        'everyone &amp; friends.',
        '',
        '01:02:03.250 --> 01:02:05.000',
        '<i>Prices</i> &lt;&gt; values',
      ].join('\r\n'),
      100,
    );
    expect(parsed).toEqual({
      ok: true,
      cues: [
        { start: 1, end: 4.5, text: 'Welcome back to the course, everyone & friends.' },
        { start: 3723.25, end: 3725, text: 'Prices <> values' },
      ],
    });
  });

  it('refuses what a browser would not show, saying which line', () => {
    expect(parseWebVtt('1\n00:00:01,000 --> 00:00:02,000\nAn SRT file', 10)).toEqual({
      ok: false,
      error: 'Line 1: a WebVTT file starts with WEBVTT',
    });
    expect(parseWebVtt('WEBVTT\n\n00:00:01,000 --> 00:00:02,000\nCommas', 10)).toEqual({
      ok: false,
      error: 'Line 3: times are written 00:01.000 or 01:02:03.000',
    });
    expect(parseWebVtt('WEBVTT\n\n00:05.000 --> 00:02.000\nBackwards', 10)).toEqual({
      ok: false,
      error: 'Line 3: a cue must end after it starts',
    });
    expect(parseWebVtt('WEBVTT\n\nid\nno times here', 10)).toEqual({
      ok: false,
      error: 'Line 4: a cue needs its times, such as 00:01.000 --> 00:04.000',
    });
    expect(parseWebVtt('WEBVTT\n\nNOTE only a note', 10)).toEqual({ ok: false, error: 'The file holds no cue: it would show nothing' });
    expect(parseWebVtt('WEBVTT\n\n00:01.000 --> 00:02.000\na\n\n00:02.000 --> 00:03.000\nb', 1)).toEqual({
      ok: false,
      error: 'A captions file may hold at most 1 cues',
    });
  });
});
