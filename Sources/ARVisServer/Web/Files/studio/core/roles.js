// What a member's role lets them do. Pure.

/// Whether the signed-in member may change `project` (owners and editors).
export const canEdit = (project) => project.role === "owner" || project.role === "editor";
