/** Text of the FGA section and the playground page (namespace "fga" of the console's catalogue). */
export const fgaEn = {
  title: 'Authorization',
};
