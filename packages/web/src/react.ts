// @askseam/web/react: opt-in JSX typing for React 19, so `<askseam-questions client={client} />`
// type-checks. Import it once (`import type {} from '@askseam/web/react'`, or list it in
// tsconfig `types`); it needs `@types/react` 19, which the rest of the package never asks for.
// React 19 sets a custom element's known properties (`client`) as properties and turns an
// `on<event-name>` prop holding a function into addEventListener('<event-name>'), as typed here.
import type { QuestionClient } from '@askseam/client';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { AskseamQuestionsElement } from './element.js';
import type { AskseamQuestionsAttributes, AskseamQuestionsEventDetails } from './element-types.js';

/** `on<event-name>` listener props, one per event the element dispatches. */
export type AskseamQuestionsReactEventProps = {
  [Name in keyof AskseamQuestionsEventDetails as `on${Name}`]?: ((event: CustomEvent<AskseamQuestionsEventDetails[Name]>) => void) | undefined;
};

/** The props of `<askseam-questions>` in React 19 JSX. */
export type AskseamQuestionsReactProps = DetailedHTMLProps<HTMLAttributes<AskseamQuestionsElement>, AskseamQuestionsElement> &
  AskseamQuestionsAttributes &
  AskseamQuestionsReactEventProps & {
    /** Use this client instead of `url`/`token` (set as a property). The element never closes it. */
    client?: QuestionClient | undefined;
  };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'askseam-questions': AskseamQuestionsReactProps;
    }
  }
}
