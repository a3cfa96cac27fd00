/* A made-up parser whose handlers get the user data of a separate call,
   as expat's do: the importer's closure-set rule (test_rules.py). */
typedef struct parser_s *parser;
typedef void (*start_handler)(void *user_data, const char *name,
                              const char **atts);
typedef void (*end_handler)(void *user_data, const char *name);
typedef void (*text_handler)(void *user_data, const char *s, int len);

parser parser_create(const char *encoding);
void parser_free(parser p);
void parser_set_element_handlers(parser p, start_handler start,
                                 end_handler end);
void parser_set_text_handler(parser p, text_handler handler);
void parser_set_user_data(parser p, void *user_data);
int parser_parse(parser p, const char *s, int len, int final);
