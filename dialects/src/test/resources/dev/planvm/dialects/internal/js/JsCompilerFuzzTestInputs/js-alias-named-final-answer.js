final_answer = search({q: 'x'});
return final_answer.items;
