/** '4:05' for 245 seconds: a place in a video, or the time a quiz has left. */
export function clockTime(totalSeconds: number): string {
  const seconds = Math.floor(totalSeconds);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
