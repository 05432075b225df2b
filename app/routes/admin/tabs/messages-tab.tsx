import { useEffect, useState } from 'react';
import { postJson } from '../../../lib/api-client.ts';
import { getJson } from './admin-ui.ts';

interface MessageRow {
  id: string;
  name: string;
  email: string;
  subject: string;
  message: string;
  handled: boolean;
  created_at: string;
}

export function MessagesTab() {
  const [messages, setMessages] = useState<MessageRow[]>([]);
  useEffect(() => {
    void getJson<MessageRow[]>('/api/admin/messages').then((result) => result && setMessages(result));
  }, []);

  async function markHandled(id: string) {
    const result = await postJson(`/api/admin/messages/${id}/handled`).catch(() => null);
    if (result?.ok) setMessages((list) => list.map((message) => (message.id === id ? { ...message, handled: true } : message)));
  }

  return (
    <section>
      <h2 className="text-xl font-bold text-gray-900">Messages</h2>
      <ul className="mt-4 space-y-3">
        {messages.map((message) => (
          <li
            key={message.id}
            className={`rounded-xl border p-4 ${message.handled ? 'border-gray-200 bg-gray-50' : 'border-gold-400 bg-white'}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold text-gray-900">{message.subject}</p>
              <p className="text-xs text-gray-500">{new Date(message.created_at).toLocaleString('en-US')}</p>
            </div>
            <p className="text-sm text-gray-600">
              {message.name} &lt;{message.email}&gt;
            </p>
            <p className="mt-2 whitespace-pre-line text-sm text-gray-800">{message.message}</p>
            {message.handled ? (
              <p className="mt-2 text-xs font-semibold text-green-700">Handled</p>
            ) : (
              <button
                type="button"
                onClick={() => markHandled(message.id)}
                className="mt-2 text-sm font-semibold text-brand-800 hover:text-brand-600"
              >
                Mark handled
              </button>
            )}
          </li>
        ))}
        {messages.length === 0 && <li className="text-sm text-gray-500">No messages yet.</li>}
      </ul>
    </section>
  );
}
