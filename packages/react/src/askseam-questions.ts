import type { QuestionClient } from '@askseam/client';
import {
  defineAskseamQuestions,
  type AskseamAnsweredDetail,
  type AskseamAttentionDetail,
  type AskseamCancelledDetail,
  type AskseamPendingChangeDetail,
  type AskseamQuestionsElement,
  type AskseamQuestionsEventDetails,
} from '@askseam/web';
import type { AskseamQuestionsReactProps } from '@askseam/web/react';
import { createElement, useCallback, useEffect, useLayoutEffect, useRef, type ReactElement, type Ref } from 'react';

// <AskseamQuestions>: the element with typed props and callbacks, safe to render on a server and
// to hydrate. React 19 sets an object prop on a custom element as a property only when the element
// is already defined at render time, and hydrateRoot sets neither properties nor event listeners on
// custom elements. So `client` and the callbacks never go through React's props: an effect sets the
// property and adds the listeners on the element itself, after defining it.

/** The element's `on<event-name>` props and `client`: this component takes them in its own shape. */
type ElementOnlyProps = keyof Pick<AskseamQuestionsReactProps, 'client' | 'ref' | 'children' | 'dangerouslySetInnerHTML'> | `on${keyof AskseamQuestionsEventDetails}`;

export type AskseamQuestionsProps = Omit<AskseamQuestionsReactProps, ElementOnlyProps> & {
  /** Use this client instead of `url`/`token`. The element never closes a client it was given. */
  client?: QuestionClient | null | undefined;
  /** The host accepted an answer. */
  onAnswered?: ((detail: AskseamAnsweredDetail) => void) | undefined;
  /** The host accepted a Dismiss. */
  onCancelled?: ((detail: AskseamCancelledDetail) => void) | undefined;
  /** The number of waiting requests (or of the urgent ones) changed. */
  onPendingChange?: ((detail: AskseamPendingChangeDetail) => void) | undefined;
  /** A request arrived while the page was hidden and the element called for attention. */
  onAttention?: ((detail: AskseamAttentionDetail) => void) | undefined;
  /** The `<askseam-questions>` element, once mounted. */
  ref?: Ref<AskseamQuestionsElement> | undefined;
};

type Callbacks = Pick<AskseamQuestionsProps, 'onAnswered' | 'onCancelled' | 'onPendingChange' | 'onAttention'>;
const callbackOf: { [Name in keyof AskseamQuestionsEventDetails]: keyof Callbacks } = {
  'askseam-answered': 'onAnswered',
  'askseam-cancelled': 'onCancelled',
  'askseam-pendingchange': 'onPendingChange',
  'askseam-attention': 'onAttention',
};

// useLayoutEffect warns when rendered on a server; there, nothing runs effects anyway.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * `<askseam-questions>` for React: give it `client` (or `url` + `token`), and callbacks with typed
 * details. Renders the bare tag on a server; in the browser it registers the element, hands it the
 * client and listens, whether it was rendered, hydrated or the element was defined late.
 */
export function AskseamQuestions(props: AskseamQuestionsProps): ReactElement {
  const { client, onAnswered, onCancelled, onPendingChange, onAttention, notify, sound, ref, ...attributes } = props;
  const element = useRef<AskseamQuestionsElement | null>(null);
  const callbacks = useRef<Callbacks>({});
  useIsomorphicLayoutEffect(() => {
    callbacks.current = { onAnswered, onCancelled, onPendingChange, onAttention };
  });

  // Defined before the client is set: a property set on a not-yet-upgraded element would shadow
  // the class's `client` accessor for good. Defining upgrades the element synchronously.
  useIsomorphicLayoutEffect(() => {
    defineAskseamQuestions();
    const node = element.current;
    if (!node) return;
    const undos = (Object.keys(callbackOf) as (keyof AskseamQuestionsEventDetails)[]).map((name) => {
      const listener = (event: Event): void => {
        const callback = callbacks.current[callbackOf[name]] as ((detail: unknown) => void) | undefined;
        callback?.((event as CustomEvent).detail);
      };
      node.addEventListener(name, listener);
      return () => node.removeEventListener(name, listener);
    });
    return () => {
      for (const undo of undos) undo();
    };
  }, []);

  useIsomorphicLayoutEffect(() => {
    const node = element.current;
    // Only the page's own client is ever set here; `undefined` hands control back to url/token.
    if (node && node.client !== (client ?? undefined)) node.client = client ?? undefined;
  }, [client]);

  const setRef = useCallback(
    (node: AskseamQuestionsElement | null) => {
      element.current = node;
      if (typeof ref === 'function') return ref(node);
      if (ref) ref.current = node;
      return undefined;
    },
    [ref],
  );

  // Boolean attributes as markup writes them: present (empty) or absent, on the server and in the browser alike.
  return createElement('askseam-questions', {
    ...attributes,
    ...(notify === true ? { notify: '' } : {}),
    ...(sound === true ? { sound: '' } : {}),
    ref: setRef,
  });
}
