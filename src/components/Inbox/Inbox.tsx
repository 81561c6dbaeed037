import { forwardRef } from 'react'
import type { HTMLAttributes, ReactElement, ReactNode, Ref, RefAttributes } from 'react'
import type { JsonObject } from '../../api/types'
import { InboxProvider } from '../../provider/InboxProvider'
import type { InboxProviderProps } from '../../provider/InboxProvider'
import type { BellRenderProps, CountKind } from '../Bell/Bell'
import { InboxPanel, splitPanelProps } from './InboxPanel'
import type { InboxPanelProps } from './InboxPanel'
import { BellTrigger, InboxRoot, PopoverContent } from './parts'
import { useControllableState } from '../internal/hooks'
import { Toaster, type ToasterProps } from '../Toaster/Toaster'
import type { InboxPlacement } from './parts'

export type { InboxTab } from './InboxTabs'

export type { InboxPlacement } from './parts'

/** Props of the inbox UI (without the provider's). */
export interface InboxViewProps<P extends JsonObject = JsonObject>
  extends Omit<HTMLAttributes<HTMLDivElement>, 'children' | 'onChange'>, InboxPanelProps<P> {
  /** Controlled open state of the popover. */
  open?: boolean
  /** Initial open state when uncontrolled. @default false */
  defaultOpen?: boolean
  /** Called with the next open state. */
  onOpenChange?: (open: boolean) => void
  /** @default 'bottom-end' */
  placement?: InboxPlacement
  /** Count on the Bell. @default 'unseen' */
  countKind?: CountKind
  /** Puts the count in `document.title`. @default false */
  titleCount?: boolean
  /** Replaces the Bell's icon and badge. */
  renderBell?: (props: BellRenderProps) => ReactNode
  /** Drops every visual rule: parts keep their classes, `data-part` and state attributes. @default false */
  unstyled?: boolean
  /**
   * Shows a toast for each notification that arrives while the app is open (in the focused tab only);
   * its "Open" opens this inbox. `true`, or the `Toaster`'s props. @default false
   */
  toasts?: boolean | Omit<ToasterProps, 'onOpen'>
}

/** Props of {@link Inbox}: the inbox UI plus, when `subscriberId` is given, those of its own provider. */
export type InboxProps<P extends JsonObject = JsonObject> = InboxViewProps<P> &
  Partial<Omit<InboxProviderProps, 'children'>>

/**
 * The whole inbox in one line: a Bell and a popover with tabs, the feed and the preferences.
 * With `subscriberId` it brings its own `InboxProvider`; without, it uses the one around it.
 * @example <Inbox subscriberId="user-1" baseUrl="/api/inbox" />
 */
export const Inbox = forwardRef(function Inbox<P extends JsonObject = JsonObject>(
  props: InboxProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const provider: Record<string, unknown> = {}
  const view: Record<string, unknown> = { ref }
  for (const [key, value] of Object.entries(props)) {
    if ((PROVIDER_KEYS as readonly string[]).includes(key)) provider[key] = value
    else view[key] = value
  }
  if (props.subscriberId === undefined) return <InboxView {...view} />
  return (
    <InboxProvider {...(provider as unknown as InboxProviderProps)}>
      <InboxView {...view} />
    </InboxProvider>
  )
}) as <P extends JsonObject = JsonObject>(props: InboxProps<P> & RefAttributes<HTMLDivElement>) => ReactElement

const PROVIDER_KEYS = [
  'subscriberId',
  'baseUrl',
  'apiKey',
  'headers',
  'getHeaders',
  'fetch',
  'client',
  'queryClient',
  'pollInterval',
  'auth',
  'onNotification',
  'onAuthError',
  'appBadge',
  'stream',
  'locale',
  'messages',
  'theme',
  'enabled',
  'initialState',
] as const satisfies readonly (keyof InboxProviderProps)[]

const InboxView = forwardRef(function InboxView<P extends JsonObject = JsonObject>(
  {
    open,
    defaultOpen,
    onOpenChange,
    placement,
    countKind,
    titleCount,
    renderBell,
    unstyled,
    toasts,
    ...rest
  }: InboxViewProps<P>,
  ref: Ref<HTMLDivElement>,
): ReactElement {
  const [panel, div] = splitPanelProps(rest)
  const [shown, setShown] = useControllableState(open, defaultOpen ?? false, onOpenChange)
  return (
    <InboxRoot ref={ref} open={shown} onOpenChange={setShown} unstyled={unstyled} {...div}>
      <BellTrigger countKind={countKind} titleCount={titleCount} renderBell={renderBell} />
      <PopoverContent placement={placement}>
        <InboxPanel {...panel} />
      </PopoverContent>
      {toasts && <Toaster {...(toasts === true ? {} : toasts)} onOpen={() => setShown(true)} />}
    </InboxRoot>
  )
}) as <P extends JsonObject = JsonObject>(props: InboxViewProps<P> & RefAttributes<HTMLDivElement>) => ReactElement
