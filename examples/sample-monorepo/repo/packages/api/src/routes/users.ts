export const usersRoute = '/users';
