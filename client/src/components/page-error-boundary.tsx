import { Component, type ReactNode } from "react";
import { LoadError } from "@/components/load-error";

interface Props {
  /** The address: opening another page clears the error, so the menu still leads somewhere. */
  resetKey: string;
  /** Outside the signed-in frame, which pads its pages, the message needs a margin of its own. */
  className?: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  resetKey: string;
}

/**
 * What a page that could not be drawn shows, rather than an empty window: its code failed to download twice (the
 * connection dropped), or it threw while rendering. Try again reloads the app: React keeps a failed download's error
 * for the rest of the visit.
 */
export class PageErrorBoundary extends Component<Props, State> {
  state: State = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className={this.props.className}>
        <LoadError message="This page could not be loaded. Check your connection and try again." onRetry={() => window.location.reload()} />
      </div>
    );
  }
}
