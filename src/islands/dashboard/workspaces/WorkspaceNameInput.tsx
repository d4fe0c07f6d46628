import { WORKSPACE_NAME_MAX } from '../../../model/workspaces.ts';

interface Props {
  id: string;
  value: string;
  onChange: (value: string) => void;
  className: string;
}

/** A workspace's name as the browser checks it before the server does: required, and no longer than the server takes. */
export function WorkspaceNameInput({ id, value, onChange, className }: Props) {
  return (
    <input
      id={id}
      required
      maxLength={WORKSPACE_NAME_MAX}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      className={className}
    />
  );
}
