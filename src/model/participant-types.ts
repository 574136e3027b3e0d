/** The legacy program's marker (`var_typ`) for participants entered as group members: the group candidates, and what a group's member list may hold. */
export const GROUP_PARTICIPANT_TYPE = 'Gruppe';
