import { Component, type ReactNode } from 'react';

/** The whole-application fallback text, word for word (docs/fixed-contract.md). */
export const ISLAND_FALLBACK_MESSAGE = 'Something went wrong. Please refresh the page and try again.';

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

/**
 * Catches a render or lifecycle error inside one island, so that a broken widget leaves the rest
 * of the static page usable and tells the visitor what to do.
 */
export class IslandErrorBoundary extends Component<Props, State> {
  state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error('Island crashed:', error);
  }

  render() {
    if (this.state.failed) {
      return (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {ISLAND_FALLBACK_MESSAGE}
        </p>
      );
    }
    return this.props.children;
  }
}
