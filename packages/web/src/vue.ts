// @askseam/web/vue: opt-in template typing for Vue 3 (with vue-tsc / Vue - Official), through
// Vue's `GlobalComponents`, the way Vue's guide types custom elements not built with Vue. Import
// it once (`import type {} from '@askseam/web/vue'`); it needs `vue`, which the rest of the package
// never asks for. Vue still has to be told the tag is a custom element (`isCustomElement`).
import type { QuestionClient } from '@askseam/client';
import type { EmitFn, HTMLAttributes } from 'vue';
import type { AskseamQuestionsElement } from './element.js';
import type { AskseamQuestionsAttributes, AskseamQuestionsEventDetails } from './element-types.js';

/** `@askseam-answered="…"` and the like: Vue reads a listener as the camel-cased `on…` prop. */
type CamelEventName<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${CamelEventName<Tail>}` : Capitalize<Name>;

/** Listener props for the element's events, as Vue's template checker looks them up. */
export type AskseamQuestionsVueEventProps = {
  [Name in keyof AskseamQuestionsEventDetails as `on${CamelEventName<Name>}`]?: ((event: CustomEvent<AskseamQuestionsEventDetails[Name]>) => void) | undefined;
};

/** The props of `<askseam-questions>` in a Vue template. */
export type AskseamQuestionsVueProps = HTMLAttributes &
  AskseamQuestionsAttributes &
  AskseamQuestionsVueEventProps & {
    /** Use this client instead of `url`/`token`; bind it as a property: `:client.prop="client"`. */
    client?: QuestionClient | undefined;
  };

/** The element as Vue's template checker sees it: the element itself plus template-only `$props` and `$emit`. */
export type AskseamQuestionsVueComponent = new () => AskseamQuestionsElement & {
  /** @deprecated For template type checking only: there is no `$props` on the element. */
  $props: AskseamQuestionsVueProps;
  /** @deprecated For template type checking only: there is no `$emit` on the element. */
  $emit: EmitFn<{ [Name in keyof AskseamQuestionsEventDetails]: (event: CustomEvent<AskseamQuestionsEventDetails[Name]>) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'askseam-questions': AskseamQuestionsVueComponent;
  }
}
