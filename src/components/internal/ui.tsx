import { en } from '../../locales/en'
import { useStrings } from './uiCore'

export { UIContext, visuallyHidden, type Part } from './uiCore'
export { useIsoLayoutEffect } from '../../provider/context'

/**
 * What a component needs to render: its strings (English with the provider's `messages` on top), the
 * locale of dates and numbers, the attributes of its root (theme, direction; none when nested in another
 * component of the kit), the class of each part, and the context for its children.
 */
export const useUI = (name: string, unstyled?: boolean) => useStrings(name, unstyled, en, 'm')
